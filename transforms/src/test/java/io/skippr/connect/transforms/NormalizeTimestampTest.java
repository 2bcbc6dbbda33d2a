package io.skippr.connect.transforms;

import static io.skippr.connect.transforms.Records.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class NormalizeTimestampTest {
  private static final Date NOON = Date.from(Instant.parse("2024-05-01T12:00:00Z"));

  private static NormalizeTimestamp<SinkRecord> normalize(String... props) {
    NormalizeTimestamp<SinkRecord> smt = new NormalizeTimestamp.Value<>();
    Map<String, String> config = new HashMap<>();
    for (int i = 0; i < props.length; i += 2) {
      config.put(props[i], props[i + 1]);
    }
    smt.configure(config);
    return smt;
  }

  private static Object convert(NormalizeTimestamp<SinkRecord> smt, Object value) {
    Map<?, ?> out = (Map<?, ?>) smt.apply(Records.value("t", map("ts", value))).value();
    return out.get("ts");
  }

  @Test
  void readsIsoStringsAndEpochsOfEveryUnitByMagnitude() {
    NormalizeTimestamp<SinkRecord> smt = normalize("fields", "ts");
    assertThat(convert(smt, "2024-05-01T12:00:00Z")).isEqualTo(NOON);
    assertThat(convert(smt, "2024-05-01T14:00:00+02:00")).isEqualTo(NOON);
    assertThat(convert(smt, "2024-05-01 12:00:00")).isEqualTo(NOON);
    assertThat(convert(smt, "2024-05-01"))
        .isEqualTo(Date.from(Instant.parse("2024-05-01T00:00:00Z")));
    long seconds = NOON.getTime() / 1000;
    assertThat(convert(smt, seconds)).isEqualTo(NOON);
    assertThat(convert(smt, (int) seconds)).isEqualTo(NOON);
    assertThat(convert(smt, NOON.getTime())).isEqualTo(NOON);
    assertThat(convert(smt, NOON.getTime() * 1000)).isEqualTo(NOON);
    assertThat(convert(smt, NOON.getTime() * 1_000_000)).isEqualTo(NOON);
    assertThat(convert(smt, seconds + 0.5)).isEqualTo(new Date(NOON.getTime() + 500));
    assertThat(convert(smt, String.valueOf(NOON.getTime()))).isEqualTo(NOON);
    assertThat(convert(smt, NOON)).isSameAs(NOON);
  }

  @Test
  void anExplicitEpochUnitOverridesMagnitude() {
    assertThat(convert(normalize("fields", "ts", "epoch.unit", "millis"), 1000L))
        .isEqualTo(new Date(1000L));
    assertThat(convert(normalize("fields", "ts", "epoch.unit", "micros"), 5_000_000L))
        .isEqualTo(new Date(5000L));
    assertThat(convert(normalize("fields", "ts", "epoch.unit", "seconds"), 2L))
        .isEqualTo(new Date(2000L));
  }

  @Test
  void triesConfiguredFormatsInOrderInTheConfiguredZone() {
    NormalizeTimestamp<SinkRecord> smt =
        normalize(
            "fields", "ts",
            "formats", "dd/MM/yyyy HH:mm,yyyyMMdd,ISO-8601",
            "timezone", "Europe/Paris");
    Date paris =
        Date.from(
            LocalDateTime.of(2024, 5, 1, 14, 0).atZone(ZoneId.of("Europe/Paris")).toInstant());
    assertThat(convert(smt, "01/05/2024 14:00")).isEqualTo(paris).isEqualTo(NOON);
    assertThat(convert(smt, "20240501"))
        .isEqualTo(Date.from(Instant.parse("2024-04-30T22:00:00Z")));
    assertThat(convert(smt, "2024-05-01T12:00:00Z")).isEqualTo(NOON);
  }

  @Test
  void unparseableValuesFailNamingFieldAndValue() {
    NormalizeTimestamp<SinkRecord> smt = normalize("fields", "ts");
    assertThatThrownBy(() -> convert(smt, "yesterday"))
        .isInstanceOf(DataException.class)
        .hasMessage(
            "NormalizeTimestamp: value of topic t: ts: cannot parse string \"yesterday\" as a"
                + " timestamp (formats: ISO-8601)");
    assertThatThrownBy(() -> convert(smt, true))
        .hasMessageContaining("ts: expected a timestamp string or epoch number, got boolean true");
    assertThatThrownBy(() -> convert(smt, Double.NaN)).hasMessageContaining("ts: NaN");
  }

  @Test
  void rewritesStructSchemasOnceAndKeepsOptionality() {
    Schema item =
        SchemaBuilder.struct()
            .optional()
            .field("sku", Schema.STRING_SCHEMA)
            .field("shipped", Schema.OPTIONAL_INT64_SCHEMA)
            .build();
    Schema schema =
        SchemaBuilder.struct()
            .name("order")
            .field("created", Schema.STRING_SCHEMA)
            .field("items", SchemaBuilder.array(item).optional().build())
            .field("other", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    Struct value =
        new Struct(schema)
            .put("created", "2024-05-01T12:00:00Z")
            .put("other", "keep")
            .put(
                "items",
                List.of(
                    new Struct(item).put("sku", "a").put("shipped", NOON.getTime()),
                    new Struct(item).put("sku", "b")));
    NormalizeTimestamp<SinkRecord> smt = normalize("fields", "created,items.shipped,missing");

    SinkRecord out = smt.apply(Records.value("t", schema, value));
    Schema outSchema = out.valueSchema();
    assertThat(outSchema.name()).isEqualTo("order");
    assertThat(outSchema.field("created").schema()).isEqualTo(Timestamp.SCHEMA);
    Schema shipped = outSchema.field("items").schema().valueSchema().field("shipped").schema();
    assertThat(shipped).isEqualTo(Timestamp.builder().optional().build());
    Struct struct = (Struct) out.value();
    assertThat(struct.get("created")).isEqualTo(NOON);
    assertThat(struct.getString("other")).isEqualTo("keep");
    List<Struct> items = struct.getArray("items");
    assertThat(items.get(0).get("shipped")).isEqualTo(NOON);
    assertThat(items.get(1).get("shipped")).isNull();
    assertThat(items.get(1).getString("sku")).isEqualTo("b");

    SinkRecord again = smt.apply(Records.value("t", schema, value));
    assertThat(again.valueSchema()).isSameAs(outSchema);
  }

  @Test
  void rewritesNestedMapsAndArraysWithoutTouchingTheInput() {
    Map<String, Object> value =
        map(
            "meta", map("sent", "2024-05-01T12:00:00Z"),
            "items", List.of(map("at", 1_714_564_800L), map("sku", "x")),
            "other", 1);
    NormalizeTimestamp<SinkRecord> smt = normalize("fields", "meta.sent,items.at");

    Map<?, ?> out = (Map<?, ?>) smt.apply(Records.value("t", value)).value();
    assertThat(((Map<?, ?>) out.get("meta")).get("sent")).isEqualTo(NOON);
    List<?> items = (List<?>) out.get("items");
    assertThat(((Map<?, ?>) items.get(0)).get("at")).isEqualTo(NOON);
    assertThat(((Map<?, ?>) items.get(1)).containsKey("at")).isFalse();
    assertThat(out.get("other")).isEqualTo(1);
    assertThat(((Map<?, ?>) value.get("meta")).get("sent")).isEqualTo("2024-05-01T12:00:00Z");
    assertThatThrownBy(
            () -> smt.apply(Records.value("t", map("items", List.of(map("at", "x"), map())))))
        .hasMessageContaining("items[0].at: cannot parse string \"x\"");
  }

  @Test
  void theKeyVariantWorksOnKeys() {
    NormalizeTimestamp<SinkRecord> smt = new NormalizeTimestamp.Key<>();
    smt.configure(Map.of("fields", "ts"));
    SinkRecord out = smt.apply(new SinkRecord("t", 0, null, map("ts", 1_714_564_800L), null, 1, 0));
    assertThat(((Map<?, ?>) out.key()).get("ts")).isEqualTo(NOON);
    assertThat(out.value()).isEqualTo(1);
  }

  @Test
  void rejectsBadConfiguration() {
    assertThatThrownBy(() -> normalize()).isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> normalize("fields", ""))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("fields");
    assertThatThrownBy(() -> normalize("fields", "ts", "formats", "yyyy-MM-dd'T"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("not a DateTimeFormatter pattern");
    assertThatThrownBy(() -> normalize("fields", "ts", "timezone", "Mars/Olympus"))
        .hasMessageContaining("unknown time zone");
    assertThatThrownBy(() -> normalize("fields", "ts", "epoch.unit", "days"))
        .hasMessageContaining("epoch.unit");
  }
}
