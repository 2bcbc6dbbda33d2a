package io.skippr.connect.source.http.config;

import java.util.Locale;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/** Who turns record values into bytes: Connect's value converter, or the request threads. */
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
    /** JsonConverter's JSON, made on the request threads; value.converter passes the bytes on. */
    JSON
  }

  /** The encoding settings. */
  public record Values(Encoding encoding, boolean jsonSchemas) {}

  private EncodingConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            ENCODING,
            Type.STRING,
            "connect",
            ConfigDef.CaseInsensitiveValidString.in("connect", "json"),
            Importance.LOW,
            "'connect': record values are Structs (line protocol) and maps (JSON), turned into bytes"
                + " by the connector's value.converter on the task's one thread. 'json': the"
                + " request threads write each value as Connect's JsonConverter would (the same"
                + " bytes), so the task's thread only hands bytes to the producer; needs"
                + " value.converter="
                + BYTES_CONVERTER
                + ", and SMTs then see bytes. For"
                + " throughput: the conversion is what a task's thread spends most of its time"
                + " on.")
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
}
