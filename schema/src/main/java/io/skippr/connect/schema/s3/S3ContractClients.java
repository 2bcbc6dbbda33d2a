package io.skippr.connect.schema.s3;

import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** Builds the S3 client of contract storage: the small synchronous HTTP client, SDK retries. */
public final class S3ContractClients {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(30);

  private S3ContractClients() {}

  /**
   * @throws IllegalArgumentException when no region is set or found
   */
  public static S3Client build(S3ContractSettings settings) {
    S3ClientBuilder builder =
        S3Client.builder()
            .httpClientBuilder(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(CONNECT_TIMEOUT)
                    .socketTimeout(SOCKET_TIMEOUT))
            .forcePathStyle(settings.pathStyleAccess())
            .region(Region.of(region(settings)));
    if (settings.endpoint() != null) {
      builder.endpointOverride(settings.endpoint());
    }
    if (settings.credentials() != null) {
      builder.credentialsProvider(StaticCredentialsProvider.create(keys(settings.credentials())));
    }
    return builder.build();
  }

  private static AwsCredentials keys(S3ContractSettings.Credentials keys) {
    return keys.sessionToken() == null
        ? AwsBasicCredentials.create(keys.accessKeyId(), keys.secretAccessKey())
        : AwsSessionCredentials.create(
            keys.accessKeyId(), keys.secretAccessKey(), keys.sessionToken());
  }

  private static String region(S3ContractSettings settings) {
    if (settings.region() != null) {
      return settings.region();
    }
    if (settings.endpoint() != null) {
      return S3ContractSettings.FALLBACK_REGION; // local servers ignore it
    }
    try {
      return new DefaultAwsRegionProviderChain().getRegion().id();
    } catch (SdkClientException e) {
      throw new IllegalArgumentException(
          "no AWS region for "
              + settings.location()
              + ": set "
              + S3ContractSettings.REGION_ENV
              + " or AWS_REGION");
    }
  }
}
