package io.skippr.connect.aws;

import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * Credentials fetched from STS through a client of their own. The SDK's STS providers never close
 * the client they are given; this one closes it with the provider. An AWS client closes the
 * credentials provider it was built with when it closes, so the STS client lives exactly as long as
 * the client whose credentials it fetches.
 */
final class StsCredentials implements AwsCredentialsProvider, SdkAutoCloseable {
  private final AwsCredentialsProvider provider;
  private final StsClient sts;

  /**
   * @param provider the SDK's provider that calls {@code sts}; closed first
   */
  StsCredentials(AwsCredentialsProvider provider, StsClient sts) {
    this.provider = provider;
    this.sts = sts;
  }

  @Override
  public AwsCredentials resolveCredentials() {
    return provider.resolveCredentials();
  }

  /** The SDK's provider (tests). */
  AwsCredentialsProvider provider() {
    return provider;
  }

  @Override
  public void close() {
    try {
      if (provider instanceof AutoCloseable closeable) {
        closeable.close();
      }
    } catch (Exception e) {
      // nothing left to release in the provider: its session cache only
    } finally {
      sts.close();
    }
  }

  @Override
  public String toString() {
    return "StsCredentials(" + provider + ")";
  }
}
