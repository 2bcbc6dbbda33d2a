package io.skippr.connect.schema.s3;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where contracts live in S3 and how to reach the bucket. Read from the environment ({@link
 * #fromEnvironment}) or from an {@code s3://bucket/prefix} location ({@link #forLocation}); {@code
 * with...} copies override single settings (the transforms' configuration keys).
 *
 * @param bucket the bucket
 * @param prefix the key prefix before {@code {tenant}/{workspace}/{pipeline}/metadata.json},
 *     without leading or trailing {@code /}; empty for none
 * @param endpoint an endpoint override (an S3-compatible server), or null for AWS
 * @param region the region, or null: AWS's default chain, or {@value #FALLBACK_REGION} with an
 *     endpoint override
 * @param pathStyleAccess address objects as {@code endpoint/bucket/key}
 * @param credentials static keys, or null for the SDK's default credentials chain
 */
public record S3ContractSettings(
    String bucket,
    String prefix,
    URI endpoint,
    String region,
    boolean pathStyleAccess,
    Credentials credentials) {
  public static final String BUCKET_ENV = "SKIPPR_S3_BUCKET";
  public static final String PREFIX_ENV = "SKIPPR_S3_PREFIX";
  public static final String ENDPOINT_ENV = "SKIPPR_S3_ENDPOINT";
  public static final String REGION_ENV = "SKIPPR_S3_REGION";
  public static final String PATH_STYLE_ENV = "SKIPPR_S3_PATH_STYLE_ACCESS";

  /** The URI scheme of S3 locations. */
  public static final String SCHEME = "s3://";

  /** The region used with an endpoint override when none is set: local servers ignore it. */
  public static final String FALLBACK_REGION = "us-east-1";

  // S3's rules for new buckets: 3-63 of a-z 0-9 . -, starting and ending with a letter or digit.
  private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
  private static final Pattern REGION = Pattern.compile("[a-z0-9-]+");

  /** An access key pair (and session token, or null) that never prints. */
  public record Credentials(String accessKeyId, String secretAccessKey, String sessionToken) {
    @Override
    public String toString() {
      return "(configured)";
    }
  }

  public S3ContractSettings {
    if (bucket == null || !BUCKET.matcher(bucket).matches() || bucket.contains("..")) {
      throw new IllegalArgumentException(
          "bucket '"
              + bucket
              + "' is not a valid S3 bucket name (3-63 characters: lowercase letters, digits, '.'"
              + " and '-', starting and ending with a letter or digit)");
    }
    prefix = trimSlashes(prefix == null ? "" : prefix);
    if (prefix.contains("//")) {
      throw new IllegalArgumentException("S3 key prefix '" + prefix + "' has an empty segment");
    }
    if (endpoint != null) {
      checkEndpoint(endpoint);
    }
    if (region != null && !REGION.matcher(region).matches()) {
      throw new IllegalArgumentException(
          "'" + region + "' is not an AWS region name (such as eu-west-1)");
    }
  }

  /** True for {@code s3://…} (the scheme in any case). */
  public static boolean isS3Uri(String location) {
    return location.regionMatches(true, 0, SCHEME, 0, SCHEME.length());
  }

  /**
   * Settings from {@value #BUCKET_ENV} and the other {@code SKIPPR_S3_*} variables; empty when
   * {@value #BUCKET_ENV} is unset or blank.
   *
   * @throws IllegalArgumentException naming the variable whose value is wrong
   */
  public static Optional<S3ContractSettings> fromEnvironment(Map<String, String> env) {
    String bucket = variable(env, BUCKET_ENV);
    if (bucket == null) {
      return Optional.empty();
    }
    return Optional.of(at(bucket, variable(env, PREFIX_ENV), env, null));
  }

  /**
   * Settings for {@code s3://bucket[/prefix]}, the rest from the environment as in {@link
   * #fromEnvironment}.
   *
   * @throws IllegalArgumentException saying what is wrong
   */
  public static S3ContractSettings forLocation(String uri, Map<String, String> env) {
    if (!isS3Uri(uri)) {
      throw new IllegalArgumentException("not an s3:// URI: " + uri);
    }
    String rest = uri.substring(SCHEME.length());
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    if (bucket.isEmpty()) {
      throw new IllegalArgumentException("no bucket in " + uri + "; use s3://bucket/prefix");
    }
    return at(bucket, slash < 0 ? "" : rest.substring(slash + 1), env, uri);
  }

  /**
   * @param origin the location to name in error messages, or null (they name the variable)
   */
  private static S3ContractSettings at(
      String bucket, String prefix, Map<String, String> env, String origin) {
    String endpoint = variable(env, ENDPOINT_ENV);
    URI uri;
    try {
      uri = endpoint == null ? null : URI.create(endpoint);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(ENDPOINT_ENV + ": not a URI: " + e.getMessage(), e);
    }
    String pathStyle = variable(env, PATH_STYLE_ENV);
    try {
      return new S3ContractSettings(
          bucket,
          prefix,
          uri,
          firstOf(env, REGION_ENV, "AWS_REGION", "AWS_DEFAULT_REGION"),
          pathStyle == null ? uri != null : parseBoolean(PATH_STYLE_ENV, pathStyle),
          credentials(env));
    } catch (IllegalArgumentException e) {
      throw origin == null ? e : new IllegalArgumentException(origin + ": " + e.getMessage(), e);
    }
  }

  /**
   * A copy with another endpoint and path-style access on (most S3-compatible servers need it);
   * follow with {@link #withPathStyle} to choose otherwise.
   */
  public S3ContractSettings withEndpoint(URI uri) {
    return new S3ContractSettings(bucket, prefix, uri, region, true, credentials);
  }

  public S3ContractSettings withRegion(String name) {
    return new S3ContractSettings(bucket, prefix, endpoint, name, pathStyleAccess, credentials);
  }

  public S3ContractSettings withPathStyle(boolean on) {
    return new S3ContractSettings(bucket, prefix, endpoint, region, on, credentials);
  }

  /** {@code s3://bucket/prefix/}, the base of every contract's URI. */
  public String location() {
    return SCHEME + bucket + "/" + (prefix.isEmpty() ? "" : prefix + "/");
  }

  /** Everything but the credentials, which show only whether they are set. */
  @Override
  public String toString() {
    return location()
        + " (endpoint "
        + (endpoint == null ? "AWS" : endpoint)
        + ", region "
        + (region == null ? "default chain" : region)
        + ", path-style "
        + pathStyleAccess
        + ", credentials "
        + (credentials == null ? "default chain" : credentials)
        + ")";
  }

  /** Static keys from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (both or neither). */
  private static Credentials credentials(Map<String, String> env) {
    String id = variable(env, "AWS_ACCESS_KEY_ID");
    String secret = variable(env, "AWS_SECRET_ACCESS_KEY");
    if (id == null && secret == null) {
      return null;
    }
    if (id == null || secret == null) {
      throw new IllegalArgumentException(
          "set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither");
    }
    return new Credentials(id, secret, variable(env, "AWS_SESSION_TOKEN"));
  }

  private static void checkEndpoint(URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      throw new IllegalArgumentException(
          "S3 endpoint '" + uri + "' is not of the form http(s)://host[:port]");
    }
  }

  private static boolean parseBoolean(String name, String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException(name + ": expected true or false, got " + value);
    };
  }

  private static String firstOf(Map<String, String> env, String... names) {
    for (String name : names) {
      String value = variable(env, name);
      if (value != null) {
        return value;
      }
    }
    return null;
  }

  /** The trimmed value, or null when unset or blank. */
  private static String variable(Map<String, String> env, String name) {
    String value = env.get(name);
    return value == null || value.isBlank() ? null : value.trim();
  }

  private static String trimSlashes(String text) {
    int start = 0;
    int end = text.length();
    while (start < end && text.charAt(start) == '/') {
      start++;
    }
    while (end > start && text.charAt(end - 1) == '/') {
      end--;
    }
    return text.substring(start, end);
  }
}
