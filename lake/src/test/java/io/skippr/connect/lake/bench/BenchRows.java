package io.skippr.connect.lake.bench;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The rows every lake sink benchmark writes: about 200 bytes of mixed types (long id, strings, a
 * double, a decimal, an int, a boolean, a timestamp, a nested struct), deterministic from the row
 * number. {@code region} takes {@code regions} distinct values, so a {@code field} partitioner over
 * it yields that many partition paths.
 */
public final class BenchRows {
  public static final String PARTITION_FIELD = "region";

  public static final Schema PRICE =
      Decimal.builder(2).parameter("connect.decimal.precision", "10").build();
  public static final Schema SHIPPING =
      SchemaBuilder.struct()
          .name("shipping")
          .field("country", Schema.STRING_SCHEMA)
          .field("zone", Schema.INT32_SCHEMA)
          .build();
  public static final Schema ROW =
      SchemaBuilder.struct()
          .name("order")
          .field("id", Schema.INT64_SCHEMA)
          .field("customer", Schema.STRING_SCHEMA)
          .field("category", Schema.OPTIONAL_STRING_SCHEMA)
          .field("amount", Schema.FLOAT64_SCHEMA)
          .field("price", PRICE)
          .field("qty", Schema.INT32_SCHEMA)
          .field("active", Schema.BOOLEAN_SCHEMA)
          .field("ts", Timestamp.SCHEMA)
          .field(PARTITION_FIELD, Schema.STRING_SCHEMA)
          .field("shipping", SHIPPING)
          .field("note", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  /** The nested payload's user object. */
  public static final Schema USER =
      SchemaBuilder.struct()
          .name("user")
          .field("uid", Schema.INT64_SCHEMA)
          .field("name", Schema.STRING_SCHEMA)
          .field("country", Schema.STRING_SCHEMA)
          .field("score", Schema.FLOAT64_SCHEMA)
          .build();

  /**
   * The nested payload, shaped like the events users send as JSON: a long id, a nested object, a
   * short and a long string, a double, a boolean and an ISO-8601 timestamp string (a string in the
   * schema; schemaless, the sink infers it as a timestamp).
   */
  public static final Schema EVENT =
      SchemaBuilder.struct()
          .name("event")
          .field("id", Schema.INT64_SCHEMA)
          .field("user", USER)
          .field("action", Schema.STRING_SCHEMA)
          .field("message", Schema.STRING_SCHEMA)
          .field("value", Schema.FLOAT64_SCHEMA)
          .field("ok", Schema.BOOLEAN_SCHEMA)
          .field("ts", Schema.STRING_SCHEMA)
          .build();

  private static final String[] ACTIONS = {"view", "click", "cart", "buy", "share", "rate"};
  private static final String[] CATEGORIES = {"books", "games", "garden", "music", "tools"};
  private static final String[] COUNTRIES = {"DE", "FR", "NL", "PL", "SE", "ES", "IT"};
  private static final long T0 = 1_767_225_600_000L;

  private BenchRows() {}

  /** Row number {@code i}; its region is one of {@code regions} values. */
  public static Struct row(long i, int regions) {
    long id = 1_000_000_000L + i;
    return new Struct(ROW)
        .put("id", id)
        .put("customer", "customer-" + (id * 7919 % 100_003) + "@example.org")
        .put("category", i % 10 == 0 ? null : CATEGORIES[(int) (i % CATEGORIES.length)])
        .put("amount", (id % 100_000) / 100.0)
        .put("price", BigDecimal.valueOf(id % 1_000_000, 2))
        .put("qty", (int) (i % 17))
        .put("active", i % 3 != 0)
        .put("ts", new java.util.Date(T0 + i * 10L))
        .put(PARTITION_FIELD, "r" + (i % regions))
        .put(
            "shipping",
            new Struct(SHIPPING)
                .put("country", COUNTRIES[(int) (i % COUNTRIES.length)])
                .put("zone", (int) (i % 40)))
        .put(
            "note",
            "order "
                + id
                + " shipped via carrier "
                + (i % 13)
                + " to warehouse "
                + Long.toHexString(id * 2654435761L)
                + " with priority "
                + (i % 5)
                + ", tracking "
                + Long.toString(id * 0x9E3779B97F4A7C15L, 36)
                + "/"
                + (i % 997)
                + ", team "
                + (i % 11));
  }

  /** Event number {@code i} of the nested payload; deterministic from {@code i}. */
  public static Struct event(long i) {
    long id = 5_000_000_000L + i;
    long uid = id * 7919 % 1_000_003;
    return new Struct(EVENT)
        .put("id", id)
        .put(
            "user",
            new Struct(USER)
                .put("uid", uid)
                .put("name", "user-" + uid)
                .put("country", COUNTRIES[(int) (i % COUNTRIES.length)])
                .put("score", (uid % 10_000) / 100.0))
        .put("action", ACTIONS[(int) (i % ACTIONS.length)])
        .put(
            "message",
            "session "
                + Long.toString(id * 0x9E3779B97F4A7C15L, 36)
                + " from "
                + (i % 251)
                + "."
                + (i % 13)
                + " took "
                + (i % 997)
                + " ms on page /p/"
                + Long.toHexString(id * 2654435761L))
        .put("value", (id % 100_000) / 100.0)
        .put("ok", i % 4 != 0)
        .put("ts", java.time.Instant.ofEpochMilli(T0 + i * 10L).toString());
  }

  /** Rows {@code from .. from+count-1}. */
  public static List<Struct> rows(long from, int count, int regions) {
    List<Struct> rows = new ArrayList<>(count);
    for (long i = from; i < from + count; i++) {
      rows.add(row(i, regions));
    }
    return rows;
  }

  /** The payloads the benchmarks write. */
  public enum Payload {
    /** {@link #ROW}: flat order rows with a decimal, a Timestamp and a small struct. */
    FLAT,
    /** {@link #EVENT}: nested JSON events with an ISO-8601 timestamp string. */
    NESTED;

    /** Row {@code i}; {@code regions} (partition paths) applies to the flat rows only. */
    public Struct row(long i, int regions) {
      return this == FLAT ? BenchRows.row(i, regions) : event(i);
    }

    /** The name options and figures use: {@code flat} or {@code nested}. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Payload of(String label) {
      return valueOf(label.toUpperCase(java.util.Locale.ROOT));
    }
  }

  /** How a record's value reaches a sink task. */
  public enum Values {
    /** A Struct, as JsonConverter with {@code schemas.enable=true} (or Avro) hands it over. */
    STRUCT,
    /** A map, as JsonConverter with {@code schemas.enable=false} hands it over. */
    SCHEMALESS
  }

  /** JSON of the rows the way producers write them for each converter setting. */
  public static final class Json {
    private final JsonConverter plain = new JsonConverter();
    private final JsonConverter enveloped = new JsonConverter();

    public Json() {
      plain.configure(Map.of("schemas.enable", "false", "decimal.format", "NUMERIC"), false);
      enveloped.configure(Map.of("schemas.enable", "true"), false);
    }

    /** The row as JSON: with the schema envelope, or plain (decimals as numbers). */
    public byte[] bytes(Struct row, boolean withSchema) {
      return (withSchema ? enveloped : plain).fromConnectData("bench", row.schema(), row);
    }

    /** What JsonConverter with {@code schemas.enable=false} makes of the plain JSON. */
    public Object schemaless(Struct row) {
      return plain.toConnectData("bench", bytes(row, false)).value();
    }

    /** What JsonConverter with {@code schemas.enable=true} makes of the enveloped JSON. */
    public SchemaAndValue withSchema(Struct row) {
      return enveloped.toConnectData("bench", bytes(row, true));
    }
  }

  /**
   * The JSON of rows {@code from .. from+count-1} as producers write it, with schema envelopes for
   * {@link Values#STRUCT} and plain for {@link Values#SCHEMALESS}: what a converter reads.
   */
  public static List<byte[]> json(
      Payload payload, long from, int count, int regions, Values values, Json json) {
    List<byte[]> out = new ArrayList<>(count);
    for (long i = from; i < from + count; i++) {
      out.add(json.bytes(payload.row(i, regions), values == Values.STRUCT));
    }
    return out;
  }

  /**
   * Sink records of JSON values ({@link #json}) read by {@code converter}, as a worker delivers
   * them: row {@code from + j} at offset {@code from + j}.
   */
  public static List<SinkRecord> converted(
      String topic, long from, List<byte[]> values, org.apache.kafka.connect.storage.Converter c) {
    List<SinkRecord> records = new ArrayList<>(values.size());
    for (int j = 0; j < values.size(); j++) {
      long i = from + j;
      SchemaAndValue value = c.toConnectData(topic, values.get(j));
      records.add(
          new SinkRecord(
              topic,
              0,
              null,
              ("order-" + i).getBytes(StandardCharsets.UTF_8),
              value.schema(),
              value.value(),
              i,
              T0 + i * 10L,
              TimestampType.CREATE_TIME));
    }
    return records;
  }

  /** Sink records of rows {@code from .. from+count-1} at offsets equal to the row numbers. */
  public static List<SinkRecord> records(
      String topic, long from, int count, int regions, Values values, Json json) {
    return records(Payload.FLAT, topic, from, count, regions, values, json);
  }

  /** As {@link #records(String, long, int, int, Values, Json)}, of the given payload. */
  public static List<SinkRecord> records(
      Payload payload, String topic, long from, int count, int regions, Values values, Json json) {
    List<SinkRecord> records = new ArrayList<>(count);
    for (long i = from; i < from + count; i++) {
      Struct row = payload.row(i, regions);
      Schema schema = null;
      Object value;
      if (values == Values.STRUCT) {
        SchemaAndValue converted = json.withSchema(row);
        schema = converted.schema();
        value = converted.value();
      } else {
        value = json.schemaless(row);
      }
      records.add(
          new SinkRecord(
              topic,
              0,
              null,
              ("order-" + i).getBytes(StandardCharsets.UTF_8),
              schema,
              value,
              i,
              T0 + i * 10L,
              TimestampType.CREATE_TIME));
    }
    return records;
  }
}
