package io.skippr.connect.sink.storage;

import java.time.Duration;
import org.apache.kafka.common.config.ConfigException;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.regions.providers.SystemSettingsRegionProvider;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** Builds the S3 client: the small synchronous HTTP client, no SDK retries (ours are). */
final class S3Clients {
  /** Region used with an endpoint override when none is configured: local servers ignore it. */
  static final String FALLBACK_REGION = "us-east-1";

  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(60);

  private S3Clients() {}

  static S3Client build(S3Config config) {
    return build(config, SOCKET_TIMEOUT);
  }

  /**
   * @param socketTimeout how long a read may wait for the server before the attempt fails
   * @throws ConfigException when no region is configured or found
   */
  static S3Client build(S3Config config, Duration socketTimeout) {
    S3ClientBuilder builder =
        S3Client.builder()
            .httpClientBuilder(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(CONNECT_TIMEOUT)
                    .socketTimeout(socketTimeout))
            .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()))
            .forcePathStyle(config.pathStyleAccess())
            .region(Region.of(region(config)));
    config.endpoint().ifPresent(builder::endpointOverride);
    config
        .credentials()
        .ifPresent(
            keys ->
                builder.credentialsProvider(
                    StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(
                            keys.accessKeyId().value(), keys.secretAccessKey().value()))));
    return builder.build();
  }

  private static String region(S3Config config) {
    if (config.region().isPresent()) {
      return config.region().get();
    }
    try {
      // With an endpoint override, skip the chain's slow instance-metadata probe.
      return (config.endpoint().isPresent()
              ? new SystemSettingsRegionProvider().getRegion()
              : new DefaultAwsRegionProviderChain().getRegion())
          .id();
    } catch (SdkClientException e) {
      if (config.endpoint().isPresent()) {
        return FALLBACK_REGION;
      }
      throw new ConfigException(
          S3Config.REGION,
          "",
          "no AWS region configured or found (AWS_REGION, profile, instance metadata): set "
              + S3Config.REGION);
    }
  }
}
