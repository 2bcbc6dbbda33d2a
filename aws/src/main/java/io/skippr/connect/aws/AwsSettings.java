package io.skippr.connect.aws;

import java.net.URI;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How to reach one AWS service (or a compatible server): the one settings model of the lake's S3
 * storage, the contract store and the DynamoDB state store. Each reads its own keys and variables
 * into it; {@link AwsClients} builds the clients from it.
 *
 * @param endpoint an endpoint override for a compatible server, or null for AWS's endpoint
 * @param region the region, or null: the SDK's chain, or {@value #FALLBACK_REGION} with an endpoint
 *     override
 * @param pathStyleAccess S3 only: address objects as {@code endpoint/bucket/key}
 * @param credentials static keys, or null for the SDK's default credentials chain (with a loopback
 *     endpoint and no credentials anywhere, keys that local servers accept)
 * @param retry how transient failures are retried
 * @param assumeRole the role assumed on top of the credentials above, or null
 * @param stsEndpoint an endpoint override for STS (assume-role, web identity), or null
 */
public record AwsSettings(
    URI endpoint,
    String region,
    boolean pathStyleAccess,
    AwsKeys credentials,
    RetryPolicy retry,
    AssumeRole assumeRole,
    URI stsEndpoint) {
  /** The region used with an endpoint override when none is set: local servers ignore it. */
  public static final String FALLBACK_REGION = "us-east-1";

  private static final Pattern REGION = Pattern.compile("[a-z0-9-]+");

  // S3's rules for new buckets: 3-63 of a-z 0-9 . -, starting and ending with a letter or digit.
  private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

  public AwsSettings {
    if (endpoint != null) {
      checkEndpoint(endpoint);
    }
    if (region != null && !isRegionName(region)) {
      throw new IllegalArgumentException(
          "'" + region + "' is not an AWS region name (such as eu-west-1)");
    }
    if (stsEndpoint != null) {
      checkEndpoint(stsEndpoint);
    }
    if (retry == null) {
      retry = RetryPolicy.STANDARD;
    }
  }

  /** Settings without assume-role or an STS endpoint. */
  public AwsSettings(
      URI endpoint,
      String region,
      boolean pathStyleAccess,
      AwsKeys credentials,
      RetryPolicy retry) {
    this(endpoint, region, pathStyleAccess, credentials, retry, null, null);
  }

  /** AWS itself, every setting from the SDK's chains. */
  public static AwsSettings defaults() {
    return new AwsSettings(null, null, false, null, RetryPolicy.STANDARD);
  }

  public AwsSettings withEndpoint(URI uri) {
    return new AwsSettings(
        uri, region, pathStyleAccess, credentials, retry, assumeRole, stsEndpoint);
  }

  public AwsSettings withRegion(String name) {
    return new AwsSettings(
        endpoint, name, pathStyleAccess, credentials, retry, assumeRole, stsEndpoint);
  }

  public AwsSettings withPathStyleAccess(boolean on) {
    return new AwsSettings(endpoint, region, on, credentials, retry, assumeRole, stsEndpoint);
  }

  public AwsSettings withCredentials(AwsKeys keys) {
    return new AwsSettings(endpoint, region, pathStyleAccess, keys, retry, assumeRole, stsEndpoint);
  }

  public AwsSettings withRetry(RetryPolicy policy) {
    return new AwsSettings(
        endpoint, region, pathStyleAccess, credentials, policy, assumeRole, stsEndpoint);
  }

  /** A copy that assumes {@code role} (null: none) on top of its credentials. */
  public AwsSettings withAssumeRole(AssumeRole role) {
    return new AwsSettings(
        endpoint, region, pathStyleAccess, credentials, retry, role, stsEndpoint);
  }

  /** A copy that reaches STS at {@code uri} (null: AWS's endpoint of the region). */
  public AwsSettings withStsEndpoint(URI uri) {
    return new AwsSettings(endpoint, region, pathStyleAccess, credentials, retry, assumeRole, uri);
  }

  /** Whether the endpoint override is on this host (a local test or development server). */
  public boolean isLoopback() {
    String host = endpoint == null ? null : endpoint.getHost();
    return host != null
        && (host.equals("localhost")
            || host.startsWith("127.")
            || host.equals("[::1]")
            || host.equals("::1"));
  }

  /**
   * An endpoint given as text.
   *
   * @throws IllegalArgumentException when it is not {@code http(s)://host[:port]}
   */
  public static URI parseEndpoint(String text) {
    URI uri;
    try {
      uri = URI.create(text.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + text + "' is not a URI: " + e.getMessage(), e);
    }
    checkEndpoint(uri);
    return uri;
  }

  public static boolean isRegionName(String name) {
    return REGION.matcher(name).matches();
  }

  /** Whether S3 would accept the name for a new bucket. */
  public static boolean isBucketName(String name) {
    return name != null && BUCKET.matcher(name).matches() && !name.contains("..");
  }

  private static void checkEndpoint(URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      throw new IllegalArgumentException(
          "endpoint '" + uri + "' is not of the form http(s)://host[:port]");
    }
  }

  /** Everything but the credentials, which show only whether they are set. */
  @Override
  public String toString() {
    return "endpoint "
        + (endpoint == null ? "AWS" : endpoint)
        + ", region "
        + (region == null ? "default chain" : region)
        + (pathStyleAccess ? ", path-style" : "")
        + ", credentials "
        + (credentials == null ? "default chain" : credentials)
        + (assumeRole == null ? "" : ", " + assumeRole)
        + (stsEndpoint == null ? "" : ", STS endpoint " + stsEndpoint)
        + ", "
        + retry.maxAttempts()
        + " attempt(s)";
  }
}
