package io.skippr.connect.sink.storage;

import java.net.URI;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * How to reach an S3 (or S3-compatible) lake. Used when {@code topics.dir} is an {@code s3://} URI
 * or {@value #BUCKET_NAME} is set. Credentials are kept as {@link Password}s, which print as {@code
 * [hidden]}, and never leave the client builder.
 */
public final class S3Config {
  public static final String GROUP = "S3";

  public static final String BUCKET_NAME = "s3.bucket.name";
  public static final String REGION = "s3.region";
  public static final String ENDPOINT = "s3.endpoint";
  public static final String PATH_STYLE_ACCESS = "s3.path.style.access";
  public static final String PART_SIZE = "s3.part.size";
  public static final String ACCESS_KEY_ID = "aws.access.key.id";
  public static final String SECRET_ACCESS_KEY = "aws.secret.access.key";
  public static final String RETRY_MAX_ATTEMPTS = "s3.retry.max.attempts";
  public static final String RETRY_BACKOFF_MS = "s3.retry.backoff.ms";

  /** S3's smallest part size (except for the last part of an upload). */
  public static final int MIN_PART_SIZE = 5 << 20;

  public static final int MAX_PART_SIZE = 1 << 30;
  public static final int DEFAULT_PART_SIZE = 8 << 20;
  public static final int DEFAULT_RETRY_MAX_ATTEMPTS = 10;
  public static final long DEFAULT_RETRY_BACKOFF_MS = 200;

  private static final Pattern REGION_NAME = Pattern.compile("[a-z0-9-]+");

  private final String bucket;
  private final String region;
  private final URI endpoint;
  private final boolean pathStyleAccess;
  private final int partSize;
  private final Credentials credentials;
  private final int retryMaxAttempts;
  private final long retryBackoffMs;

  /**
   * @param bucket the bucket, empty when {@code topics.dir} names it
   * @param region the region, null for the SDK's default chain
   * @param endpoint an endpoint override for S3-compatible servers, or null
   * @param credentials static credentials, or null for the SDK's default credentials chain
   */
  public S3Config(
      String bucket,
      String region,
      URI endpoint,
      boolean pathStyleAccess,
      int partSize,
      Credentials credentials,
      int retryMaxAttempts,
      long retryBackoffMs) {
    this.bucket = bucket;
    this.region = region;
    this.endpoint = endpoint;
    this.pathStyleAccess = pathStyleAccess;
    this.partSize = partSize;
    this.credentials = credentials;
    this.retryMaxAttempts = retryMaxAttempts;
    this.retryBackoffMs = retryBackoffMs;
  }

  /** An access key pair; {@link Password}s print as {@code [hidden]}. */
  public record Credentials(Password accessKeyId, Password secretAccessKey) {
    @Override
    public String toString() {
      return "(configured)";
    }
  }

  /** Settings for a server at {@code endpoint} with path-style access and static credentials. */
  public static S3Config forEndpoint(URI endpoint, String accessKeyId, String secretAccessKey) {
    return new S3Config(
        "",
        null,
        endpoint,
        true,
        DEFAULT_PART_SIZE,
        new Credentials(new Password(accessKeyId), new Password(secretAccessKey)),
        DEFAULT_RETRY_MAX_ATTEMPTS,
        DEFAULT_RETRY_BACKOFF_MS);
  }

  public static ConfigDef define(ConfigDef def) {
    return defineTransfer(defineLocation(def));
  }

  private static ConfigDef defineLocation(ConfigDef def) {
    int order = 0;
    return def.define(
            BUCKET_NAME,
            Type.STRING,
            "",
            new BucketValidator(),
            Importance.HIGH,
            "S3 bucket of the lake. When set, topics.dir is the key prefix inside it (e.g."
                + " 'topics'); alternatively name the bucket in topics.dir as s3://bucket/prefix"
                + " and leave this empty.",
            GROUP,
            ++order,
            Width.MEDIUM,
            "S3 bucket")
        .define(
            REGION,
            Type.STRING,
            "",
            new PatternValidator(REGION_NAME, "a region name such as eu-west-1, or empty"),
            Importance.MEDIUM,
            "AWS region of the bucket. Empty: the SDK's default chain (AWS_REGION, the profile,"
                + " instance metadata); with s3.endpoint set and no region found, us-east-1.",
            GROUP,
            ++order,
            Width.SHORT,
            "S3 region")
        .define(
            ENDPOINT,
            Type.STRING,
            "",
            new EndpointValidator(),
            Importance.LOW,
            "Endpoint override for S3-compatible servers, e.g. http://127.0.0.1:9000. Empty:"
                + " AWS's endpoint for the region.",
            GROUP,
            ++order,
            Width.LONG,
            "S3 endpoint")
        .define(
            PATH_STYLE_ACCESS,
            Type.BOOLEAN,
            false,
            null,
            Importance.LOW,
            "Address objects as endpoint/bucket/key instead of bucket.endpoint/key. Most"
                + " S3-compatible servers need true.",
            GROUP,
            ++order,
            Width.SHORT,
            "Path-style access");
  }

  private static ConfigDef defineTransfer(ConfigDef def) {
    int order = 4;
    return def.define(
            PART_SIZE,
            Type.INT,
            DEFAULT_PART_SIZE,
            Range.between(MIN_PART_SIZE, MAX_PART_SIZE),
            Importance.LOW,
            "Bytes per multipart upload part. A file is streamed from the Parquet writer in parts"
                + " of this size; a file smaller than one part is sent with a single PUT. Each file"
                + " being written holds one part in memory.",
            GROUP,
            ++order,
            Width.SHORT,
            "S3 part size")
        .define(
            ACCESS_KEY_ID,
            Type.PASSWORD,
            null,
            new NotBlankValidator(),
            Importance.MEDIUM,
            "AWS access key id, with aws.secret.access.key. Unset: the SDK's default credentials"
                + " chain (environment, profile, web identity, container or instance role).",
            GROUP,
            ++order,
            Width.MEDIUM,
            "AWS access key id")
        .define(
            SECRET_ACCESS_KEY,
            Type.PASSWORD,
            null,
            new NotBlankValidator(),
            Importance.MEDIUM,
            "AWS secret access key, with aws.access.key.id. Never logged.",
            GROUP,
            ++order,
            Width.MEDIUM,
            "AWS secret access key")
        .define(
            RETRY_MAX_ATTEMPTS,
            Type.INT,
            DEFAULT_RETRY_MAX_ATTEMPTS,
            Range.between(1, 100),
            Importance.LOW,
            "Attempts per S3 request when it fails transiently (HTTP 5xx, throttling, timeouts,"
                + " connection resets); after the last one the task fails and nothing of the"
                + " unit is committed.",
            GROUP,
            ++order,
            Width.SHORT,
            "S3 retry attempts")
        .define(
            RETRY_BACKOFF_MS,
            Type.LONG,
            DEFAULT_RETRY_BACKOFF_MS,
            Range.between(0, 60_000),
            Importance.LOW,
            "Base of the exponential backoff between S3 retries: before attempt n the task waits"
                + " a random time up to min(20 s, base * 2^(n-2)).",
            GROUP,
            ++order,
            Width.SHORT,
            "S3 retry backoff");
  }

  /**
   * Reads the S3 keys.
   *
   * @throws ConfigException when only one of the credential keys is set
   */
  public static S3Config from(AbstractConfig c) {
    Password id = c.getPassword(ACCESS_KEY_ID);
    Password secret = c.getPassword(SECRET_ACCESS_KEY);
    if ((id == null) != (secret == null)) {
      String missing = id == null ? ACCESS_KEY_ID : SECRET_ACCESS_KEY;
      throw new ConfigException(
          missing, null, "set both " + ACCESS_KEY_ID + " and " + SECRET_ACCESS_KEY + " or neither");
    }
    String region = c.getString(REGION).trim();
    String endpoint = c.getString(ENDPOINT).trim();
    return new S3Config(
        c.getString(BUCKET_NAME).trim(),
        region.isEmpty() ? null : region,
        endpoint.isEmpty() ? null : URI.create(endpoint),
        c.getBoolean(PATH_STYLE_ACCESS),
        c.getInt(PART_SIZE),
        id == null ? null : new Credentials(id, secret),
        c.getInt(RETRY_MAX_ATTEMPTS),
        c.getLong(RETRY_BACKOFF_MS));
  }

  /** The configured bucket, empty when {@code topics.dir} names it. */
  public String bucket() {
    return bucket;
  }

  public Optional<String> region() {
    return Optional.ofNullable(region);
  }

  public Optional<URI> endpoint() {
    return Optional.ofNullable(endpoint);
  }

  public boolean pathStyleAccess() {
    return pathStyleAccess;
  }

  public int partSize() {
    return partSize;
  }

  /** Static credentials; empty for the SDK's default credentials chain. */
  public Optional<Credentials> credentials() {
    return Optional.ofNullable(credentials);
  }

  public int retryMaxAttempts() {
    return retryMaxAttempts;
  }

  public long retryBackoffMs() {
    return retryBackoffMs;
  }

  /** A copy with another part size. */
  public S3Config withPartSize(int bytes) {
    return new S3Config(
        bucket,
        region,
        endpoint,
        pathStyleAccess,
        bytes,
        credentials,
        retryMaxAttempts,
        retryBackoffMs);
  }

  /** A copy with other retry settings. */
  public S3Config withRetries(int maxAttempts, long backoffMs) {
    return new S3Config(
        bucket, region, endpoint, pathStyleAccess, partSize, credentials, maxAttempts, backoffMs);
  }

  /** Everything but the credentials, which show only whether they are set. */
  @Override
  public String toString() {
    return "endpoint "
        + (endpoint == null ? "(AWS)" : endpoint)
        + ", region "
        + (region == null ? "(default chain)" : region)
        + ", path-style "
        + pathStyleAccess
        + ", part size "
        + partSize
        + ", credentials "
        + (credentials == null ? "(default chain)" : credentials)
        + ", retries "
        + retryMaxAttempts
        + " × "
        + retryBackoffMs
        + " ms";
  }

  /** Empty, or a valid bucket name. */
  static final class BucketValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      String bucket = value == null ? "" : value.toString().trim();
      if (!bucket.isEmpty() && !S3Location.isBucketName(bucket)) {
        throw new ConfigException(
            name,
            value,
            "not a valid bucket name (3-63 characters: lowercase letters, digits, '.' and '-')");
      }
    }

    @Override
    public String toString() {
      return "empty, or an S3 bucket name";
    }
  }

  /** Empty, or a whole match of a pattern. */
  static final class PatternValidator implements ConfigDef.Validator {
    private final Pattern pattern;
    private final String description;

    PatternValidator(Pattern pattern, String description) {
      this.pattern = pattern;
      this.description = description;
    }

    @Override
    public void ensureValid(String name, Object value) {
      String text = value == null ? "" : value.toString().trim();
      if (!text.isEmpty() && !pattern.matcher(text).matches()) {
        throw new ConfigException(name, value, "expected " + description);
      }
    }

    @Override
    public String toString() {
      return description;
    }
  }

  /** Empty, or an http(s) URI with a host. */
  static final class EndpointValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      String text = value == null ? "" : value.toString().trim();
      if (text.isEmpty()) {
        return;
      }
      URI uri;
      try {
        uri = URI.create(text);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name, value, "not a URI: " + e.getMessage());
      }
      String scheme = uri.getScheme() == null ? "" : uri.getScheme();
      if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
        throw new ConfigException(name, value, "expected http(s)://host[:port]");
      }
    }

    @Override
    public String toString() {
      return "empty, or http(s)://host[:port]";
    }
  }

  /** Unset, or a value that is not blank. */
  static final class NotBlankValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      if (value instanceof Password password && password.value().isBlank()) {
        throw new ConfigException(name, "[hidden]", "must not be blank when set");
      }
    }

    @Override
    public String toString() {
      return "unset, or not blank";
    }
  }
}
