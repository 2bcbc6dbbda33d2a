package io.skippr.connect.lake.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.partition.PartitioningConfig.Kind;
import io.skippr.connect.lake.partition.PartitioningConfig.TimestampSource;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class PartitioningConfigTest {
  static PartitioningConfig parse(Map<String, String> props) {
    return PartitioningConfig.from(
        new AbstractConfig(PartitioningConfig.define(new ConfigDef()), props));
  }

  @Test
  void defaults() {
    PartitioningConfig config = parse(Map.of());
    assertThat(config.kind()).isEqualTo(Kind.DEFAULT);
    assertThat(config.fieldNames()).isEmpty();
    assertThat(config.durationMs()).isEqualTo(-1L);
    assertThat(config.timestampSource()).isEqualTo(TimestampSource.RECORD);
    assertThat(config.timestampField()).isEqualTo("timestamp");
    assertThat(config.timezone()).isEqualTo(ZoneId.of("UTC"));
    assertThat(config.locale()).isEqualTo(Locale.ROOT);
    assertThat(config).isEqualTo(PartitioningConfig.defaults());
  }

  @Test
  void readsEveryKey() {
    Map<String, String> props = new HashMap<>();
    props.put("partitioner.class", "field+time");
    props.put("partition.field.name", "region, customer.country");
    props.put("path.format", "'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH");
    props.put("partition.duration.ms", "3600000");
    props.put("timestamp.extractor", "RecordField");
    props.put("timestamp.field", "event.at");
    props.put("timezone", "Europe/Berlin");
    props.put("locale", "de-DE");
    PartitioningConfig config = parse(props);
    assertThat(config.kind()).isEqualTo(Kind.FIELD_TIME);
    assertThat(config.fieldNames()).containsExactly("region", "customer.country");
    assertThat(config.pathFormat()).isEqualTo("'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH");
    assertThat(config.durationMs()).isEqualTo(3_600_000L);
    assertThat(config.timestampSource()).isEqualTo(TimestampSource.RECORD_FIELD);
    assertThat(config.timestampField()).isEqualTo("event.at");
    assertThat(config.timezone()).isEqualTo(ZoneId.of("Europe/Berlin"));
    assertThat(config.locale()).isEqualTo(Locale.GERMANY);
    assertThat(config.toString())
        .isEqualTo(
            "partitioner.class=field+time, partition.field.name=region,customer.country,"
                + " path.format='year'=YYYY/'month'=MM/'day'=dd/'hour'=HH,"
                + " partition.duration.ms=3600000, timestamp.extractor=RecordField,"
                + " timestamp.field=event.at, timezone=Europe/Berlin, locale=de-DE");
  }

  @Test
  void acceptsConfluentClassNamesAndAnyCase() {
    assertThat(
            parse(
                    Map.of(
                        "partitioner.class",
                        "io.confluent.connect.storage.partitioner.DefaultPartitioner"))
                .kind())
        .isEqualTo(Kind.DEFAULT);
    assertThat(
            parse(
                    Map.of(
                        "partitioner.class",
                        "io.confluent.connect.storage.partitioner.TimeBasedPartitioner",
                        "path.format",
                        "YYYY"))
                .kind())
        .isEqualTo(Kind.TIME);
    assertThat(parse(Map.of("timestamp.extractor", "wallclock")).timestampSource())
        .isEqualTo(TimestampSource.WALLCLOCK);
  }

  @Test
  void rejectsBadValuesWithTheKey() {
    assertRejected(Map.of("partitioner.class", "hourly"), "partitioner.class");
    assertRejected(Map.of("timestamp.extractor", "Header"), "timestamp.extractor");
    assertRejected(Map.of("timezone", "Mars/Olympus"), "timezone");
    assertRejected(Map.of("partition.duration.ms", "-2"), "partition.duration.ms");
    assertRejected(Map.of("path.format", "'year'=bbbb"), "path.format");
    assertRejected(Map.of("path.format", "YYYY//MM"), "path.format");
    assertRejected(Map.of("path.format", "'unterminated"), "path.format");
    assertRejected(Map.of("path.format", "VV"), "path.format");
    assertRejected(Map.of("partition.field.name", "a..b"), "partition.field.name");
    assertRejected(Map.of("locale", "!!"), "locale");
    assertRejected(Map.of("timestamp.field", ""), "timestamp.field");
  }

  @Test
  void rejectsIncompleteCombinations() {
    assertRejected(Map.of("partitioner.class", "field"), "partition.field.name");
    assertRejected(Map.of("partitioner.class", "time"), "path.format");
    assertRejected(
        Map.of("partitioner.class", "field+time", "partition.field.name", "a"), "path.format");
    assertThatThrownBy(
            () ->
                new PartitioningConfig(
                    Kind.FIELD,
                    List.of(),
                    "",
                    -1,
                    TimestampSource.RECORD,
                    "ts",
                    ZoneId.of("UTC"),
                    Locale.ROOT))
        .isInstanceOf(ConfigException.class);
  }

  private static void assertRejected(Map<String, String> props, String key) {
    assertThatThrownBy(() -> parse(props))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(key);
  }
}
