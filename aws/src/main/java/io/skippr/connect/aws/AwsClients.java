package io.skippr.connect.aws;

import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.regions.providers.SystemSettingsRegionProvider;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The one client builder: the SDK's small synchronous HTTP client, no SDK retries ({@link
 * AwsRetries} decides them, so the number of attempts and ambiguous outcomes are ours), the region
 * and credentials of the settings or the SDK's chains.
 */
public final class AwsClients {
  public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(60);

  private AwsClients() {}

  /**
   * An S3 client.
   *
   * @param socketTimeout how long a read may wait for the server before the attempt fails
   * @throws IllegalArgumentException when no region is configured or found
   */
  public static S3Client s3(AwsSettings settings, Duration socketTimeout) {
    return configure(S3Client.builder(), settings, socketTimeout)
        .forcePathStyle(settings.pathStyleAccess())
        .build();
  }

  /**
   * A DynamoDB client.
   *
   * @throws IllegalArgumentException when no region is configured or found
   */
  public static DynamoDbClient dynamoDb(AwsSettings settings) {
    return configure(DynamoDbClient.builder(), settings, Duration.ofSeconds(30))
        .overrideConfiguration(
            c ->
                c.retryStrategy(AwsRetryStrategy.doNotRetry())
                    .apiCallAttemptTimeout(Duration.ofSeconds(30)))
        .build();
  }

  private static <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B configure(
      B builder, AwsSettings settings, Duration socketTimeout) {
    String region = region(settings);
    builder
        .httpClientBuilder(
            UrlConnectionHttpClient.builder()
                .connectionTimeout(CONNECT_TIMEOUT)
                .socketTimeout(socketTimeout))
        .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .region(Region.of(region));
    if (settings.endpoint() != null) {
      builder.endpointOverride(settings.endpoint());
    }
    AwsCredentialsProvider credentials = AwsCredentialProviders.of(settings, region);
    if (credentials != null) {
      builder.credentialsProvider(credentials);
    }
    return builder;
  }

  /** The region of the settings, else the SDK's chain, else (with an endpoint) the fallback. */
  static String region(AwsSettings settings) {
    if (settings.region() != null) {
      return settings.region();
    }
    try {
      // With an endpoint override, skip the chain's slow instance-metadata probe.
      return (settings.endpoint() != null
              ? new SystemSettingsRegionProvider().getRegion()
              : new DefaultAwsRegionProviderChain().getRegion())
          .id();
    } catch (SdkClientException e) {
      if (settings.endpoint() != null) {
        return AwsSettings.FALLBACK_REGION;
      }
      throw new IllegalArgumentException(
          "no AWS region configured or found (AWS_REGION, the profile, instance metadata)", e);
    }
  }
}
