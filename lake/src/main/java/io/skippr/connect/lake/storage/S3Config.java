package io.skippr.connect.lake.storage;

import io.skippr.connect.aws.AwsCredentialsConfig;
import io.skippr.connect.aws.AwsKeys;
import io.skippr.connect.aws.AwsSettings;
import io.skippr.connect.aws.ConfigLookup;
import io.skippr.connect.aws.RetryPolicy;
import io.skippr.connect.aws.S3WriteOptions;
import io.skippr.connect.aws.S3WriteOptionsConfig;
import java.net.URI;
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
 * or {@value #BUCKET_NAME} is set: the bucket and part size, and the one AWS settings model for the
 * rest. Credentials are {@link Password}s in the config and {@link AwsKeys} (which never print)
 * after.
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
  public static final long MAX_BACKOFF_MS = 20_000;

  private final String bucket;
  private final int partSize;
  private final AwsSettings aws;
  private S3WriteOptions writeOptions = S3WriteOptions.NONE;

  /**
   * @param bucket the bucket, empty when {@code topics.dir} names it
   * @param aws how to reach S3: region, endpoint, path style, credentials, retries
   */
  public S3Config(String bucket, int partSize, AwsSettings aws) {
    this.bucket = bucket;
    this.partSize = partSize;
    this.aws = aws;
  }

  /** Settings for a server at {@code endpoint} with path-style access and static credentials. */
  public static S3Config forEndpoint(URI endpoint, String accessKeyId, String secretAccessKey) {
    return new S3Config(
        "",
        DEFAULT_PART_SIZE,
        AwsSettings.defaults()
            .withEndpoint(endpoint)
            .withPathStyleAccess(true)
            .withCredentials(new AwsKeys(accessKeyId, secretAccessKey, null))
            .withRetry(retryPolicy(DEFAULT_RETRY_MAX_ATTEMPTS, DEFAULT_RETRY_BACKOFF_MS)));
  }

  /** The lake's retry policy: backoff from {@code backoffMs}, waits capped at 20 s. */
  public static RetryPolicy retryPolicy(int maxAttempts, long backoffMs) {
    return new RetryPolicy(maxAttempts, backoffMs, MAX_BACKOFF_MS);
  }

  public static ConfigDef define(ConfigDef def) {
    AwsCredentialsConfig.S3.define(defineTransfer(defineLocation(def)), GROUP, 20);
    return S3WriteOptionsConfig.define(def, GROUP, 30);
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
            new RegionValidator(),
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
    AwsSettings aws =
        new AwsSettings(
            endpoint.isEmpty() ? null : URI.create(endpoint),
            region.isEmpty() ? null : region,
            c.getBoolean(PATH_STYLE_ACCESS),
            id == null ? null : new AwsKeys(id.value(), secret.value(), null),
            retryPolicy(c.getInt(RETRY_MAX_ATTEMPTS), c.getLong(RETRY_BACKOFF_MS)));
    return new S3Config(
            c.getString(BUCKET_NAME).trim(),
            c.getInt(PART_SIZE),
            AwsCredentialsConfig.S3.apply(aws, ConfigLookup.of(c)))
        .withWriteOptions(S3WriteOptionsConfig.from(ConfigLookup.of(c)));
  }

  /** The configured bucket, empty when {@code topics.dir} names it. */
  public String bucket() {
    return bucket;
  }

  public int partSize() {
    return partSize;
  }

  /** How to reach S3. */
  public AwsSettings aws() {
    return aws;
  }

  /** Encryption and ACL of every request on the lake's objects. */
  public S3WriteOptions writeOptions() {
    return writeOptions;
  }

  /** A copy with other encryption and ACL settings. */
  public S3Config withWriteOptions(S3WriteOptions options) {
    S3Config copy = new S3Config(bucket, partSize, aws);
    copy.writeOptions = options;
    return copy;
  }

  /** A copy with another part size. */
  public S3Config withPartSize(int bytes) {
    return new S3Config(bucket, bytes, aws).withWriteOptions(writeOptions);
  }

  /** A copy with other retry settings. */
  public S3Config withRetries(int maxAttempts, long backoffMs) {
    return new S3Config(bucket, partSize, aws.withRetry(retryPolicy(maxAttempts, backoffMs)))
        .withWriteOptions(writeOptions);
  }

  /** Everything but the credentials, which show only whether they are set. */
  @Override
  public String toString() {
    return aws + ", part size " + partSize + ", " + writeOptions;
  }

  /** Empty, or a valid bucket name. */
  static final class BucketValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      String bucket = value == null ? "" : value.toString().trim();
      if (!bucket.isEmpty() && !AwsSettings.isBucketName(bucket)) {
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

  /** Empty, or a region name. */
  static final class RegionValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      String text = value == null ? "" : value.toString().trim();
      if (!text.isEmpty() && !AwsSettings.isRegionName(text)) {
        throw new ConfigException(name, value, "expected " + this);
      }
    }

    @Override
    public String toString() {
      return "a region name such as eu-west-1, or empty";
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
      try {
        AwsSettings.parseEndpoint(text);
      } catch (IllegalArgumentException e) {
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
