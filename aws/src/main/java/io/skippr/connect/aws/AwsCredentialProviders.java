package io.skippr.connect.aws;

import io.skippr.connect.common.ProcessEnvironment;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkSystemSetting;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.StsClientBuilder;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;
import software.amazon.awssdk.services.sts.auth.StsWebIdentityTokenFileCredentialsProvider;

/**
 * The credentials of every AWS client: static keys, else web identity (IRSA: {@code
 * AWS_WEB_IDENTITY_TOKEN_FILE} and {@code AWS_ROLE_ARN}) through the settings' STS endpoint, else
 * the SDK's default chain; with a role to assume, STS credentials of that role on top, fetched
 * again five minutes before they expire (and at the latest one minute before). Each STS client is
 * closed with the provider that uses it ({@link StsCredentials}), which the AWS client closes.
 */
final class AwsCredentialProviders {
  /** When temporary credentials are fetched again ahead of their expiry. */
  static final Duration PREFETCH = Duration.ofMinutes(5);

  /** When temporary credentials are no longer used. */
  static final Duration STALE = Duration.ofMinutes(1);

  private AwsCredentialProviders() {}

  /** The provider of {@code settings}, or null for the client's own default chain. */
  static AwsCredentialsProvider of(AwsSettings settings, String region) {
    AwsCredentialsProvider base = base(settings, region);
    if (settings.assumeRole() == null) {
      return base;
    }
    AssumeRole role = settings.assumeRole();
    // The STS client closes its own credentials (base) when it closes.
    StsClient sts =
        sts(settings, region, base == null ? DefaultCredentialsProvider.builder().build() : base);
    return new StsCredentials(
        StsAssumeRoleCredentialsProvider.builder()
            .stsClient(sts)
            .refreshRequest(
                r ->
                    r.roleArn(role.roleArn())
                        .roleSessionName(role.sessionName())
                        .externalId(role.externalId()))
            .prefetchTime(PREFETCH)
            .staleTime(STALE)
            .asyncCredentialUpdateEnabled(false)
            .build(),
        sts);
  }

  private static AwsCredentialsProvider base(AwsSettings settings, String region) {
    AwsKeys keys = settings.credentials();
    if (keys == null && settings.isLoopback() && !credentialsAround()) {
      // Local servers accept any signature; spare users from inventing keys.
      keys = new AwsKeys("local", "local", null);
    }
    if (keys != null) {
      return StaticCredentialsProvider.create(credentials(keys));
    }
    if (!staticKeysAround() && webIdentityAround()) {
      // The chain would find these too, but only through AWS's STS endpoint.
      StsClient sts = sts(settings, region, AnonymousCredentialsProvider.create());
      return new StsCredentials(
          StsWebIdentityTokenFileCredentialsProvider.builder()
              .stsClient(sts)
              .prefetchTime(PREFETCH)
              .staleTime(STALE)
              .asyncCredentialUpdateEnabled(false)
              .build(),
          sts);
    }
    return null;
  }

  private static StsClient sts(
      AwsSettings settings, String region, AwsCredentialsProvider credentials) {
    StsClientBuilder builder =
        StsClient.builder()
            .httpClientBuilder(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(AwsClients.CONNECT_TIMEOUT)
                    .socketTimeout(Duration.ofSeconds(30)))
            .region(Region.of(region))
            .credentialsProvider(credentials);
    if (settings.stsEndpoint() != null) {
      builder.endpointOverride(settings.stsEndpoint());
    }
    return builder.build();
  }

  private static AwsCredentials credentials(AwsKeys keys) {
    return keys.sessionToken() == null
        ? AwsBasicCredentials.create(keys.accessKeyId(), keys.secretAccessKey())
        : AwsSessionCredentials.create(
            keys.accessKeyId(), keys.secretAccessKey(), keys.sessionToken());
  }

  private static boolean staticKeysAround() {
    return SdkSystemSetting.AWS_ACCESS_KEY_ID.getStringValue().isPresent();
  }

  private static boolean webIdentityAround() {
    return SdkSystemSetting.AWS_WEB_IDENTITY_TOKEN_FILE.getStringValue().isPresent()
        && SdkSystemSetting.AWS_ROLE_ARN.getStringValue().isPresent();
  }

  private static boolean credentialsAround() {
    return ProcessEnvironment.variable("AWS_ACCESS_KEY_ID").isPresent()
        || ProcessEnvironment.variable("AWS_PROFILE").isPresent()
        || ProcessEnvironment.variable("AWS_WEB_IDENTITY_TOKEN_FILE").isPresent()
        || System.getProperty("aws.accessKeyId") != null
        || System.getProperty("aws.webIdentityTokenFile") != null;
  }
}
