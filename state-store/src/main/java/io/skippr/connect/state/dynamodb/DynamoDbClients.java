package io.skippr.connect.state.dynamodb;

import io.skippr.connect.state.api.StateStoreSettings;
import io.skippr.connect.state.api.StoreEnvironment;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/** Builds the DynamoDB client: small synchronous HTTP client, our own retries, local defaults. */
final class DynamoDbClients {
  static final String LOCAL_REGION = "us-east-1";

  private DynamoDbClients() {}

  static DynamoDbClient build(StateStoreSettings settings) {
    DynamoDbClientBuilder builder =
        DynamoDbClient.builder()
            .httpClientBuilder(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(Duration.ofSeconds(5))
                    .socketTimeout(Duration.ofSeconds(30)))
            // Retries are ours (Retrier), so their number and final error are under our control.
            .overrideConfiguration(
                c ->
                    c.retryStrategy(AwsRetryStrategy.doNotRetry())
                        .apiCallAttemptTimeout(Duration.ofSeconds(30)));
    Optional<URI> endpoint = settings.dynamoDbEndpoint();
    endpoint.ifPresent(builder::endpointOverride);
    boolean local = endpoint.map(DynamoDbClients::isLoopback).orElse(false);
    StoreEnvironment env = settings.environment();
    Optional<String> region =
        settings
            .dynamoDbRegion()
            .or(() -> env.variable("AWS_REGION"))
            .or(() -> env.variable("AWS_DEFAULT_REGION"))
            .or(() -> local ? Optional.of(LOCAL_REGION) : Optional.empty());
    region.map(Region::of).ifPresent(builder::region);
    if (local && !hasCredentials(env)) {
      // Local servers accept any signature; spare users from inventing keys.
      builder.credentialsProvider(
          StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")));
    }
    return builder.build();
  }

  static boolean isLoopback(URI endpoint) {
    String host = endpoint.getHost();
    return host != null
        && (host.equals("localhost")
            || host.startsWith("127.")
            || host.equals("[::1]")
            || host.equals("::1"));
  }

  private static boolean hasCredentials(StoreEnvironment env) {
    return env.variable("AWS_ACCESS_KEY_ID").isPresent()
        || env.variable("AWS_PROFILE").isPresent()
        || env.variable("AWS_WEB_IDENTITY_TOKEN_FILE").isPresent()
        || System.getProperty("aws.accessKeyId") != null;
  }
}
