package io.skippr.connect.lake.storage;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * Where the lake lives: a local directory, or an S3 bucket and prefix ({@code topics.dir} = {@code
 * s3://bucket/prefix}, or {@code s3.bucket.name} with {@code topics.dir} as the prefix).
 */
public final class StorageConfig {
  public static final String GROUP = "Storage";

  public static final String TOPICS_DIR = "topics.dir";

  /** The key prefix of a lake named by {@code s3.bucket.name} alone, as Confluent's S3 sink. */
  public static final String DEFAULT_S3_PREFIX = "topics";

  private static final Pattern URI_SCHEME = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*):.*");

  private final String topicsDir;
  private final S3Location s3Location;
  private final S3Config s3;

  /** A local lake. */
  public StorageConfig(String topicsDir) {
    this(topicsDir, null, null);
  }

  /**
   * @param s3Location the bucket and prefix of an S3 lake, null for a local one
   * @param s3 how to reach S3, null for a local lake
   */
  public StorageConfig(String topicsDir, S3Location s3Location, S3Config s3) {
    this.topicsDir = topicsDir;
    this.s3Location = s3Location;
    this.s3 = s3;
  }

  public static ConfigDef define(ConfigDef def) {
    def.define(
        TOPICS_DIR,
        Type.STRING,
        null,
        new LocationValidator(),
        Importance.HIGH,
        "Root of the lake: a local path, a file:// URI, or s3://bucket/prefix (with "
            + S3Config.BUCKET_NAME
            + " set: the key prefix inside that bucket, '"
            + DEFAULT_S3_PREFIX
            + "' when unset). Tables are directories under it, and the commit logs live under its"
            + " _skippr/ directory.",
        GROUP,
        1,
        Width.LONG,
        "Topics directory");
    return S3Config.define(def);
  }

  /**
   * Reads the storage keys.
   *
   * @throws ConfigException when topics.dir and the S3 keys contradict each other
   */
  public static StorageConfig from(AbstractConfig c) {
    S3Config s3 = S3Config.from(c);
    String bucket = s3.bucket();
    String topicsDir = c.getString(TOPICS_DIR) == null ? "" : c.getString(TOPICS_DIR).trim();
    if (topicsDir.isEmpty() && (bucket.isEmpty() || c.getString(TOPICS_DIR) != null)) {
      throw new ConfigException(TOPICS_DIR, c.getString(TOPICS_DIR), "must name the lake's root");
    }
    topicsDir = topicsDir.isEmpty() ? DEFAULT_S3_PREFIX : topicsDir;
    if (S3Location.isS3Uri(topicsDir)) {
      S3Location location = parse(topicsDir);
      if (!bucket.isEmpty() && !bucket.equals(location.bucket())) {
        throw new ConfigException(
            S3Config.BUCKET_NAME,
            bucket,
            "names another bucket than " + TOPICS_DIR + "=" + topicsDir + "; leave one of them");
      }
      return new StorageConfig(topicsDir, location, s3);
    }
    if (bucket.isEmpty()) {
      return new StorageConfig(topicsDir);
    }
    if (URI_SCHEME.matcher(topicsDir).matches()) {
      throw new ConfigException(
          TOPICS_DIR,
          topicsDir,
          "with "
              + S3Config.BUCKET_NAME
              + " set, "
              + TOPICS_DIR
              + " is the key prefix inside the bucket (e.g. 'topics'), not a URI");
    }
    return new StorageConfig(topicsDir, parse(S3Location.SCHEME + bucket + "/" + topicsDir), s3);
  }

  private static S3Location parse(String uri) {
    try {
      return S3Location.parse(uri);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(TOPICS_DIR, uri, e.getMessage());
    }
  }

  public String topicsDir() {
    return topicsDir;
  }

  /** The bucket and prefix when the lake is on S3. */
  public Optional<S3Location> s3Location() {
    return Optional.ofNullable(s3Location);
  }

  /** How to reach S3 when the lake is there. */
  public Optional<S3Config> s3() {
    return Optional.ofNullable(s3Location == null ? null : s3);
  }

  /** Opens the lake's storage. */
  public LakeStorage open() {
    if (s3Location != null) {
      return S3LakeStorage.open(s3Location, s3);
    }
    return LocalLakeStorage.at(topicsDir);
  }

  /** A non-empty local path, {@code file:} URI or {@code s3://bucket[/prefix]}. */
  static final class LocationValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      if (value == null) {
        return; // s3.bucket.name alone names the lake; from() checks that one of them is set
      }
      String location = value.toString().trim();
      if (location.isEmpty()) {
        throw new ConfigException(name, value, "must name the lake's root directory");
      }
      if (S3Location.isS3Uri(location)) {
        try {
          S3Location.parse(location);
        } catch (IllegalArgumentException e) {
          throw new ConfigException(name, value, e.getMessage());
        }
        return;
      }
      var scheme = URI_SCHEME.matcher(location);
      if (scheme.matches() && !scheme.group(1).toLowerCase(Locale.ROOT).equals("file")) {
        throw new ConfigException(
            name,
            value,
            "use a local path, a file:// URI or s3://bucket/prefix; '"
                + scheme.group(1)
                + ":' is not supported");
      }
    }

    @Override
    public String toString() {
      return "a local path, file:// URI or s3://bucket/prefix";
    }
  }
}
