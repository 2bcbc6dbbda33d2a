package io.skippr.connect.source.common.encoding;

import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * Who turns record values into bytes: Connect's value converter, or the source as it reads them
 * (the same keys for every source that offers it).
 */
public final class EncodingConfig {

  public static final String ENCODING = "record.encoding";
  public static final String JSON_SCHEMAS = "record.encoding.json.schemas.enable";

  /** The converter a task with {@code record.encoding=json} needs. */
  public static final String BYTES_CONVERTER =
      "org.apache.kafka.connect.converters.ByteArrayConverter";

  /** How values leave the task. */
  public enum Encoding {
    /** Structs and maps, converted by the connector's value.converter on the task's thread. */
    CONNECT,
    /** JsonConverter's JSON, written by the source as it reads; value.converter passes it on. */
    JSON
  }

  /** The encoding settings. */
  public record Values(Encoding encoding, boolean jsonSchemas) {}

  private EncodingConfig() {}

  /**
   * @param values what the record values are with 'connect'
   * @param writer who writes the JSON with 'json', and from what
   */
  public static ConfigDef define(ConfigDef def, String values, String writer) {
    return def.define(
            ENCODING,
            Type.STRING,
            "connect",
            ConfigDef.CaseInsensitiveValidString.in("connect", "json"),
            Importance.LOW,
            "'connect': record values are "
                + values
                + ", turned into bytes by the connector's value.converter on the task's one"
                + " thread."
                + " 'json': each value is written as Connect's JsonConverter would write it (the"
                + " same bytes) by "
                + writer
                + ", so the worker's converter only passes bytes on; needs value.converter="
                + BYTES_CONVERTER
                + ", and SMTs then see bytes. For throughput: the conversion is what a task's"
                + " thread spends most of its time on.")
        .define(
            JSON_SCHEMAS,
            Type.BOOLEAN,
            true,
            Importance.LOW,
            "With record.encoding=json: write the schema envelope (schema and payload),"
                + " as JsonConverter with schemas.enable=true does; false writes the payload only.");
  }

  public static Values from(AbstractConfig c) {
    return new Values(
        Encoding.valueOf(c.getString(ENCODING).toUpperCase(Locale.ROOT)),
        c.getBoolean(JSON_SCHEMAS));
  }

  /**
   * What is wrong with {@code record.encoding=json} and a value.converter other than {@link
   * #BYTES_CONVERTER} set on the connector, or null.
   */
  public static String converterClash(Values values, Map<String, String> props) {
    String converter = props.get("value.converter");
    if (values.encoding() != Encoding.JSON
        || converter == null
        || converter.strip().equals(BYTES_CONVERTER)) {
      return null;
    }
    return "the values are bytes already: set value.converter="
        + BYTES_CONVERTER
        + " (got "
        + converter
        + ")";
  }
}
