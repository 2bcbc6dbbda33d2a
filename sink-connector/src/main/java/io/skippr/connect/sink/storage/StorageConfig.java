package io.skippr.connect.sink.storage;

import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/** Where the lake lives. */
public final class StorageConfig {
  public static final String GROUP = "Storage";

  public static final String TOPICS_DIR = "topics.dir";

  private static final Pattern URI_SCHEME = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*):.*");

  private final String topicsDir;

  public StorageConfig(String topicsDir) {
    this.topicsDir = topicsDir;
  }

  public static ConfigDef define(ConfigDef def) {
    return def.define(
        TOPICS_DIR,
        Type.STRING,
        ConfigDef.NO_DEFAULT_VALUE,
        new LocationValidator(),
        Importance.HIGH,
        "Root of the lake: a local path or file:// URI. Tables are directories under it, and the"
            + " commit logs live under its _skippr/ directory.",
        GROUP,
        1,
        Width.LONG,
        "Topics directory");
  }

  public static StorageConfig from(AbstractConfig c) {
    return new StorageConfig(c.getString(TOPICS_DIR).trim());
  }

  public String topicsDir() {
    return topicsDir;
  }

  /** Opens the lake's storage. */
  public LakeStorage open() {
    return LocalLakeStorage.at(topicsDir);
  }

  /** A non-empty local path or {@code file:} URI. */
  static final class LocationValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      String location = value == null ? "" : value.toString().trim();
      if (location.isEmpty()) {
        throw new ConfigException(name, value, "must name the lake's root directory");
      }
      var scheme = URI_SCHEME.matcher(location);
      if (scheme.matches() && !scheme.group(1).toLowerCase(Locale.ROOT).equals("file")) {
        throw new ConfigException(
            name,
            value,
            "use a local path or a file:// URI; '" + scheme.group(1) + ":' is not supported");
      }
    }

    @Override
    public String toString() {
      return "a local path or file:// URI";
    }
  }
}
