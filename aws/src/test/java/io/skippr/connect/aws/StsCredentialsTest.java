package io.skippr.connect.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/** The STS client behind assumed-role credentials closes with the AWS client that uses them. */
class StsCredentialsTest {

  @Test
  void closingTheProviderClosesItsStsClient() {
    AtomicBoolean stsClosed = new AtomicBoolean();
    AtomicBoolean providerClosed = new AtomicBoolean();
    StsCredentials credentials = new StsCredentials(new Tracked(providerClosed), sts(stsClosed));
    assertThat(credentials.resolveCredentials().accessKeyId()).isEqualTo("AKIA1");
    credentials.close();
    assertThat(providerClosed).isTrue();
    assertThat(stsClosed).isTrue();
  }

  @Test
  void anS3ClientClosesTheProviderItWasBuiltWith() {
    AtomicBoolean stsClosed = new AtomicBoolean();
    StsCredentials credentials =
        new StsCredentials(new Tracked(new AtomicBoolean()), sts(stsClosed));
    S3Client s3 =
        S3Client.builder()
            .region(Region.EU_WEST_1)
            .endpointOverride(URI.create("http://127.0.0.1:9"))
            .credentialsProvider(credentials)
            .build();
    assertThat(stsClosed).isFalse();
    s3.close();
    assertThat(stsClosed).isTrue();
  }

  @Test
  void aDynamoDbClientClosesTheProviderItWasBuiltWith() {
    AtomicBoolean stsClosed = new AtomicBoolean();
    DynamoDbClient dynamo =
        DynamoDbClient.builder()
            .region(Region.EU_WEST_1)
            .endpointOverride(URI.create("http://127.0.0.1:9"))
            .credentialsProvider(
                new StsCredentials(new Tracked(new AtomicBoolean()), sts(stsClosed)))
            .build();
    dynamo.close();
    assertThat(stsClosed).isTrue();
  }

  @Test
  void anAssumedRoleClientBuiltFromSettingsClosesWithoutError() {
    AwsSettings settings =
        AwsSettings.defaults()
            .withEndpoint(URI.create("http://127.0.0.1:9"))
            .withCredentials(new AwsKeys("AKIA1", "secret", null))
            .withAssumeRole(new AssumeRole("arn:aws:iam::123456789012:role/r", "s", null))
            .withStsEndpoint(URI.create("http://127.0.0.1:9"));
    AwsCredentialsProvider provider = AwsCredentialProviders.of(settings, "eu-west-1");
    assertThat(provider).isInstanceOf(SdkAutoCloseable.class);
    ((SdkAutoCloseable) provider).close();
  }

  private static StsClient sts(AtomicBoolean closed) {
    return new StsClient() {
      @Override
      public String serviceName() {
        return "sts";
      }

      @Override
      public void close() {
        closed.set(true);
      }
    };
  }

  /** A provider that records being closed. */
  private record Tracked(AtomicBoolean closed) implements AwsCredentialsProvider, AutoCloseable {
    @Override
    public AwsCredentials resolveCredentials() {
      return AwsBasicCredentials.create("AKIA1", "secret");
    }

    @Override
    public void close() {
      closed.set(true);
    }
  }
}
