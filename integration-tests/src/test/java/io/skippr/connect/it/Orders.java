package io.skippr.connect.it;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * Deterministic test orders: the record at (partition, offset) is always the same, so the lake can
 * be checked value by value against what was produced without keeping the records around.
 */
final class Orders {
  static final long BASE_TIME = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
  static final long STEP_MILLIS = 10;

  static final Schema ADDRESS =
      SchemaBuilder.struct()
          .name("Address")
          .optional()
          .field("city", Schema.STRING_SCHEMA)
          .field("zip", Schema.OPTIONAL_INT32_SCHEMA)
          .build();
  static final Schema ITEM =
      SchemaBuilder.struct()
          .name("Item")
          .field("sku", Schema.STRING_SCHEMA)
          .field("qty", Schema.INT32_SCHEMA)
          .build();
  static final Schema VALUE =
      SchemaBuilder.struct()
          .name("Order")
          .field("id", Schema.INT64_SCHEMA)
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .field("amount", Decimal.builder(2).optional().build())
          .field("ts", Timestamp.SCHEMA)
          .field("day", Date.builder().optional().build())
          .field("score", Schema.OPTIONAL_FLOAT64_SCHEMA)
          .field("active", Schema.BOOLEAN_SCHEMA)
          .field("address", ADDRESS)
          .field("items", SchemaBuilder.array(ITEM).build())
          .field(
              "attributes",
              SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT64_SCHEMA).optional().build())
          .build();

  private Orders() {}

  static long id(int partition, long offset) {
    return partition * 1_000_000_000L + offset;
  }

  static long timestamp(long offset) {
    return BASE_TIME + offset * STEP_MILLIS;
  }

  static String name(long id) {
    return id % 7 == 0 ? null : "customer \"" + id + "\" ü/…";
  }

  static BigDecimal amount(long id) {
    return id % 11 == 0 ? null : BigDecimal.valueOf(id % 100_000, 2);
  }

  static Integer dayEpoch(long offset) {
    return offset % 13 == 0 ? null : (int) (timestamp(offset) / 86_400_000L);
  }

  static Double score(long id) {
    return id % 17 == 0 ? null : (id % 1000) / 8.0;
  }

  static String city(long id) {
    return id % 5 == 0 ? null : "city-" + (id % 37);
  }

  static int itemCount(long id) {
    return (int) (id % 4);
  }

  static String sku(long id, int item) {
    return "sku-" + id + "-" + item;
  }

  static int qty(long id, int item) {
    return (int) ((id + item) % 9) + 1;
  }

  static Struct value(int partition, long offset) {
    long id = id(partition, offset);
    Struct order =
        new Struct(VALUE)
            .put("id", id)
            .put("name", name(id))
            .put("amount", amount(id))
            .put("ts", new java.util.Date(timestamp(offset)))
            .put(
                "day",
                dayEpoch(offset) == null
                    ? null
                    : new java.util.Date(dayEpoch(offset) * 86_400_000L))
            .put("score", score(id))
            .put("active", id % 2 == 0);
    if (city(id) != null) {
      order.put(
          "address", new Struct(ADDRESS).put("city", city(id)).put("zip", (int) (id % 90_000)));
    }
    List<Struct> items = new ArrayList<>();
    for (int i = 0; i < itemCount(id); i++) {
      items.add(new Struct(ITEM).put("sku", sku(id, i)).put("qty", qty(id, i)));
    }
    order.put("items", items);
    if (id % 3 != 0) {
      Map<String, Long> attributes = new LinkedHashMap<>();
      attributes.put("a", id);
      attributes.put("b", -id);
      order.put("attributes", attributes);
    }
    return order;
  }

  /**
   * Sends {@code perPartition} orders to each partition as JSON with schemas, round-robin by
   * offset, and waits until Kafka acknowledged them all.
   */
  static void send(
      KafkaProducer<byte[], byte[]> producer, String topic, int partitions, long perPartition) {
    JsonConverter withSchemas = new JsonConverter();
    withSchemas.configure(Map.of("schemas.enable", "true", "converter.type", "value"));
    for (long o = 0; o < perPartition; o++) {
      for (int p = 0; p < partitions; p++) {
        byte[] value = withSchemas.fromConnectData(topic, VALUE, value(p, o));
        producer.send(new ProducerRecord<>(topic, p, timestamp(o), key(p, o), value));
      }
    }
    producer.flush();
  }

  static byte[] key(int partition, long offset) {
    return ("order-" + id(partition, offset)).getBytes(StandardCharsets.UTF_8);
  }

  /** The same order as schemaless JSON (what a producer without schemas sends). */
  static String json(int partition, long offset) {
    long id = id(partition, offset);
    StringBuilder out = new StringBuilder(256);
    out.append("{\"id\":").append(id);
    out.append(",\"name\":").append(jsonString(name(id)));
    out.append(",\"ts\":\"").append(java.time.Instant.ofEpochMilli(timestamp(offset))).append('"');
    out.append(",\"score\":").append(score(id) == null ? "null" : score(id).toString());
    out.append(",\"active\":").append(id % 2 == 0);
    out.append(",\"address\":");
    if (city(id) == null) {
      out.append("null");
    } else {
      out.append("{\"city\":\"")
          .append(city(id))
          .append("\",\"zip\":")
          .append(id % 90_000)
          .append('}');
    }
    out.append(",\"items\":[");
    for (int i = 0; i < itemCount(id); i++) {
      out.append(i == 0 ? "" : ",")
          .append("{\"sku\":\"")
          .append(sku(id, i))
          .append("\",\"qty\":")
          .append(qty(id, i))
          .append('}');
    }
    return out.append("]}").toString();
  }

  private static String jsonString(String value) {
    return value == null ? "null" : "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
