package io.skippr.connect.schema.s3;

import io.skippr.connect.aws.AwsKeys;
import io.skippr.connect.aws.AwsSettings;
import io.skippr.connect.aws.RetryPolicy;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where contracts live in S3 and how to reach the bucket. Read from the environment ({@link
 * #fromEnvironment}) or from an {@code s3://bucket/prefix} location ({@link #forLocation}); {@code
 * with...} copies override single settings (the transforms' configuration keys).
 *
 * @param bucket the bucket
 * @param prefix the key prefix before {@code {tenant}/{workspace}/{pipeline}/metadata.json},
 *     without leading or trailing {@code /}; empty for none
 * @param aws how to reach the bucket (the one AWS settings model)
 */
public record S3ContractSettings(String bucket, String prefix, AwsSettings aws) {
  public static final String BUCKET_ENV = "SKIPPR_S3_BUCKET";
  public static final String PREFIX_ENV = "SKIPPR_S3_PREFIX";
  public static final String ENDPOINT_ENV = "SKIPPR_S3_ENDPOINT";
  public static final String REGION_ENV = "SKIPPR_S3_REGION";
  public static final String PATH_STYLE_ENV = "SKIPPR_S3_PATH_STYLE_ACCESS";

  /** The URI scheme of S3 locations. */
  public static final String SCHEME = "s3://";

  /** Contract reads and writes are small and interactive: a few quick attempts. */
  static final RetryPolicy RETRY = new RetryPolicy(3, 50, 1_000);

  public S3ContractSettings {
    if (!AwsSettings.isBucketName(bucket)) {
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
      uri = endpoint == null ? null : AwsSettings.parseEndpoint(endpoint);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(ENDPOINT_ENV + ": " + e.getMessage(), e);
    }
    String pathStyle = variable(env, PATH_STYLE_ENV);
    try {
      return new S3ContractSettings(
          bucket,
          prefix,
          new AwsSettings(
              uri,
              firstOf(env, REGION_ENV, "AWS_REGION", "AWS_DEFAULT_REGION"),
              pathStyle == null ? uri != null : parseBoolean(PATH_STYLE_ENV, pathStyle),
              credentials(env),
              RETRY));
    } catch (IllegalArgumentException e) {
      throw origin == null ? e : new IllegalArgumentException(origin + ": " + e.getMessage(), e);
    }
  }

  /**
   * A copy with another endpoint and path-style access on (most S3-compatible servers need it);
   * follow with {@link #withPathStyle} to choose otherwise.
   */
  public S3ContractSettings withEndpoint(URI uri) {
    return new S3ContractSettings(bucket, prefix, aws.withEndpoint(uri).withPathStyleAccess(true));
  }

  public S3ContractSettings withRegion(String name) {
    return new S3ContractSettings(bucket, prefix, aws.withRegion(name));
  }

  public S3ContractSettings withPathStyle(boolean on) {
    return new S3ContractSettings(bucket, prefix, aws.withPathStyleAccess(on));
  }

  /** {@code s3://bucket/prefix/}, the base of every contract's URI. */
  public String location() {
    return SCHEME + bucket + "/" + (prefix.isEmpty() ? "" : prefix + "/");
  }

  /** Everything but the credentials, which show only whether they are set. */
  @Override
  public String toString() {
    return location() + " (" + aws + ")";
  }

  /** Static keys from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (both or neither). */
  private static AwsKeys credentials(Map<String, String> env) {
    String id = variable(env, "AWS_ACCESS_KEY_ID");
    String secret = variable(env, "AWS_SECRET_ACCESS_KEY");
    if (id == null && secret == null) {
      return null;
    }
    if (id == null || secret == null) {
      throw new IllegalArgumentException(
          "set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither");
    }
    return new AwsKeys(id, secret, variable(env, "AWS_SESSION_TOKEN"));
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
