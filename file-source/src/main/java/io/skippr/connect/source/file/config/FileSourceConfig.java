package io.skippr.connect.source.file.config;

import io.skippr.connect.source.common.encoding.EncodingConfig;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** The file source's configuration, composed of one fragment per concern. */
public final class FileSourceConfig {

  /** All keys of the connector. */
  public static final ConfigDef CONFIG_DEF =
      EncodingConfig.define(
          OffsetMirrorConfig.define(
              CompletionConfig.define(
                  TopicsConfig.define(
                      FormatConfig.define(DirectoryConfig.define(new ConfigDef()))))),
          "maps (NDJSON, CSV) and Structs (line protocol)",
          "the task's thread straight from each parsed line, without a map or Struct");

  /** The validated settings. */
  public record Values(
      DirectoryConfig.Values directory,
      FormatConfig.Values format,
      TopicsConfig.Values topics,
      CompletionConfig.Values completion,
      OffsetMirrorConfig.Mode mirror,
      EncodingConfig.Values encoding) {}

  private FileSourceConfig() {}

  /** Parses and cross-checks the settings; throws {@link ConfigException} when they clash. */
  public static Values from(Map<String, String> props) {
    AbstractConfig c = new AbstractConfig(CONFIG_DEF, props, false);
    Values values = values(c);
    Map<String, String> problems = FileSourceChecks.problems(values, props);
    if (!problems.isEmpty()) {
      Map.Entry<String, String> first = problems.entrySet().iterator().next();
      throw new ConfigException(first.getKey(), props.get(first.getKey()), first.getValue());
    }
    return values;
  }

  static Values values(AbstractConfig c) {
    return new Values(
        DirectoryConfig.from(c),
        FormatConfig.from(c),
        TopicsConfig.from(c),
        CompletionConfig.from(c),
        OffsetMirrorConfig.mode(c),
        EncodingConfig.from(c));
  }
}
