package io.skippr.connect.it;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/** Reads a state store table with the plain AWS SDK, not through the store it checks. */
final class DynamoDbRows {
  private DynamoDbRows() {}

  /** The sort keys ({@code key}) of the table's items that start with {@code prefix}, sorted. */
  static List<String> keys(URI endpoint, String table, String prefix) {
    try (DynamoDbClient client =
        DynamoDbClient.builder()
            .endpointOverride(endpoint)
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
            .httpClientBuilder(UrlConnectionHttpClient.builder())
            .build()) {
      List<String> keys = new ArrayList<>();
      for (Map<String, AttributeValue> item :
          client.scanPaginator(ScanRequest.builder().tableName(table).build()).items()) {
        String key = item.get("key").s();
        if (key.startsWith(prefix)) {
          keys.add(key);
        }
      }
      keys.sort(null);
      return keys;
    }
  }
}
