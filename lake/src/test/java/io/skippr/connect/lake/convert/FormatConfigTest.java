package io.skippr.connect.lake.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class FormatConfigTest {
  private static FormatConfig parse(Map<String, String> props) {
    return FormatConfig.from(new AbstractConfig(FormatConfig.define(new ConfigDef()), props));
  }

  @Test
  void defaultsAreSnappyThirtyTwoMebibyteRowGroupsAndNoExtraColumns() {
    FormatConfig config = parse(Map.of());

    assertThat(config.codec()).isEqualTo(FormatConfig.Codec.SNAPPY);
    assertThat(config.rowGroupBytes()).isEqualTo(32L * 1024 * 1024);
    assertThat(config.includeKafkaMetadata()).isFalse();
    assertThat(config.includeKey()).isFalse();
    assertThat(config.nullValues()).isEqualTo(FormatConfig.NullValues.IGNORE);
    assertThat(config.tableNameFormat()).isEqualTo("${topic}");
  }

  @Test
  void readsEveryKey() {
    FormatConfig config =
        parse(
            Map.of(
                "parquet.codec", "ZSTD",
                "parquet.row.group.bytes", "1048576",
                "include.kafka.metadata", "true",
                "include.key", "true",
                "behavior.on.null.values", "write",
                "table.name.format", "raw_${topic}"));

    assertThat(config.codec()).isEqualTo(FormatConfig.Codec.ZSTD);
    assertThat(config.rowGroupBytes()).isEqualTo(1_048_576L);
    assertThat(config.includeKafkaMetadata()).isTrue();
    assertThat(config.includeKey()).isTrue();
    assertThat(config.nullValues()).isEqualTo(FormatConfig.NullValues.WRITE);
    assertThat(config.tableNameFormat()).isEqualTo("raw_${topic}");
  }

  @Test
  void rejectsValuesOutsideTheirDomain() {
    assertThatThrownBy(() -> parse(Map.of("parquet.codec", "lz4")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("parquet.codec");
    assertThatThrownBy(() -> parse(Map.of("parquet.row.group.bytes", "1024")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("parquet.row.group.bytes");
    assertThatThrownBy(() -> parse(Map.of("parquet.row.group.bytes", "1073741824")))
        .isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> parse(Map.of("behavior.on.null.values", "delete")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("behavior.on.null.values");
    assertThatThrownBy(() -> parse(Map.of("table.name.format", " ")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("table.name.format");
  }

  @Test
  void everyKeyHasDocumentationAndADefault() {
    ConfigDef def = FormatConfig.define(new ConfigDef());

    assertThat(def.names())
        .containsExactlyInAnyOrder(
            "parquet.codec",
            "parquet.row.group.bytes",
            "include.kafka.metadata",
            "include.key",
            "include.headers",
            "behavior.on.null.values",
            "table.name.format");
    def.configKeys()
        .values()
        .forEach(
            key -> {
              assertThat(key.documentation).as(key.name).isNotBlank();
              assertThat(key.hasDefault()).as(key.name).isTrue();
            });
  }
}
