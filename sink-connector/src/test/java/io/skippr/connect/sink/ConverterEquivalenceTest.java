package io.skippr.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.json.JsonObject;
import io.skippr.connect.json.StreamingJsonConverter;
import io.skippr.connect.lake.write.RecordingContext;
import io.skippr.connect.testkit.DuckDbLake;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.storage.Converter;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same JSON records through Kafka's JsonConverter and through {@link StreamingJsonConverter}
 * (whose schemaless objects take the sink's positional fast path) give the same lake: the same
 * Parquet files byte for byte, and the same rows read back by DuckDB. Schemaless records bring new
 * keys, nulls, missing keys, numbers that widen and nested objects and arrays, so the table's
 * schema evolves while units are cut; enveloped records carry optional fields and nested structs.
 */
class ConverterEquivalenceTest {
  private static final String TOPIC = "events";
  private static final int PARTITIONS = 3;
  private static final int PER_PARTITION = 600;
  private static final String[] COUNTRIES = {"DE", "FR", "NL", "PL", "SE", "ES", "IT"};

  @TempDir Path dir;

  @ParameterizedTest(name = "schemas.enable={0}")
  @ValueSource(booleans = {false, true})
  void bothConvertersWriteTheSameFiles(boolean schemas) throws Exception {
    List<List<byte[]>> json = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      json.add(records(p, schemas));
    }
    Path kafka = write(dir.resolve("kafka"), json, converter(new JsonConverter(), schemas));
    StreamingJsonConverter streaming = new StreamingJsonConverter();
    Path ours = write(dir.resolve("streaming"), json, converter(streaming, schemas));
    if (!schemas) {
      Object value = streaming.toConnectData(TOPIC, json.get(0).get(0)).value();
      assertThat(value).as("the fast path's input").isInstanceOf(JsonObject.class);
    }

    Map<String, byte[]> kafkaFiles = parquetFiles(kafka);
    Map<String, byte[]> ourFiles = parquetFiles(ours);
    // 600 records per partition in units of 200: three files per partition.
    assertThat(kafkaFiles).hasSize(PARTITIONS * 3);
    assertThat(ourFiles.keySet()).isEqualTo(kafkaFiles.keySet());
    kafkaFiles.forEach((name, bytes) -> assertThat(ourFiles.get(name)).as(name).isEqualTo(bytes));

    String rows =
        "select * replace (hex(__key) as __key) from ${table:events}"
            + " order by __partition, __offset";
    try (DuckDbLake a = new DuckDbLake(kafka.resolve("lake"));
        DuckDbLake b = new DuckDbLake(ours.resolve("lake"))) {
      List<String> expected = printed(a.query(rows));
      assertThat(expected).hasSize(PARTITIONS * PER_PARTITION);
      assertThat(printed(b.query(rows))).isEqualTo(expected);
      assertThat(a.count("select count(distinct id) from ${table:events}"))
          .isEqualTo(PARTITIONS * PER_PARTITION);
      if (!schemas) {
        // Keys that appear late become columns; earlier rows read them as null.
        assertThat(b.count("select count(*) from ${table:events} where extra is not null"))
            .isEqualTo(PARTITIONS * (PER_PARTITION - 300));
      }
    }
  }

  /**
   * Rows as text: DuckDB's structs, lists and blobs compare by identity, but print their values.
   */
  private static List<String> printed(List<Map<String, Object>> rows) {
    return rows.stream().map(Object::toString).toList();
  }

  private static Converter converter(Converter converter, boolean schemas) {
    converter.configure(Map.of("schemas.enable", Boolean.toString(schemas)), false);
    return converter;
  }

  private Path write(Path root, List<List<byte[]>> json, Converter converter) throws Exception {
    Map<String, String> props = new HashMap<>();
    props.put("name", "equivalence");
    props.put("topics.dir", root.resolve("lake").toUri().toString());
    props.put("store.rocksdb.path", root.resolve("state").toString());
    props.put("flush.size", "200");
    props.put("include.kafka.metadata", "true");
    props.put("include.key", "true");
    LakeSinkTask task = new LakeSinkTask();
    task.initialize(new RecordingContext(false));
    task.start(props);
    List<TopicPartition> tps = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      tps.add(new TopicPartition(TOPIC, p));
    }
    try {
      task.open(tps);
      for (int from = 0; from < PER_PARTITION; from += 100) {
        List<SinkRecord> batch = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
          for (int offset = from; offset < from + 100; offset++) {
            batch.add(record(converter, p, offset, json.get(p).get(offset)));
          }
        }
        task.put(batch);
      }
      Map<TopicPartition, OffsetAndMetadata> committed = task.preCommit(Map.of());
      while (!allCommitted(committed, tps)) {
        Thread.onSpinWait(); // the last unit is written in the background
        committed = task.preCommit(Map.of());
      }
    } finally {
      task.close(tps);
      task.stop();
    }
    return root;
  }

  private static boolean allCommitted(
      Map<TopicPartition, OffsetAndMetadata> offsets, List<TopicPartition> tps) {
    return tps.stream()
        .allMatch(tp -> offsets.containsKey(tp) && offsets.get(tp).offset() >= PER_PARTITION);
  }

  private static SinkRecord record(Converter converter, int partition, long offset, byte[] json) {
    SchemaAndValue value = converter.toConnectData(TOPIC, json);
    return new SinkRecord(
        TOPIC,
        partition,
        null,
        ("k" + partition + "-" + offset).getBytes(StandardCharsets.UTF_8),
        value.schema(),
        value.value(),
        offset,
        1_767_225_600_000L + offset,
        TimestampType.CREATE_TIME);
  }

  private static Map<String, byte[]> parquetFiles(Path root) throws IOException {
    Path lake = root.resolve("lake");
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(lake)) {
      for (Path file : walk.filter(f -> f.toString().endsWith(".parquet")).toList()) {
        files.put(lake.relativize(file).toString(), Files.readAllBytes(file));
      }
    }
    return files;
  }

  /** The JSON a producer sends for one partition's records, plain or in envelopes. */
  private static List<byte[]> records(int partition, boolean schemas) {
    Random random = new Random(26 + partition);
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < PER_PARTITION; i++) {
      String payload = payload(random, partition * 100_000L + i, i, schemas);
      String json = schemas ? "{\"schema\":" + SCHEMA + ",\"payload\":" + payload + "}" : payload;
      out.add(json.getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }

  private static final String USER_SCHEMA =
      "{\"type\":\"struct\",\"optional\":true,\"name\":\"user\",\"fields\":["
          + "{\"field\":\"uid\",\"type\":\"int64\",\"optional\":false},"
          + "{\"field\":\"name\",\"type\":\"string\",\"optional\":true},"
          + "{\"field\":\"country\",\"type\":\"string\",\"optional\":true}]}";

  private static final String SCHEMA =
      "{\"type\":\"struct\",\"optional\":false,\"name\":\"event\",\"fields\":["
          + "{\"field\":\"id\",\"type\":\"int64\",\"optional\":false},"
          + ("{\"field\":\"user\"," + USER_SCHEMA.substring(1) + ",")
          + "{\"field\":\"action\",\"type\":\"string\",\"optional\":true},"
          + "{\"field\":\"message\",\"type\":\"string\",\"optional\":true},"
          + "{\"field\":\"value\",\"type\":\"double\",\"optional\":true},"
          + "{\"field\":\"ok\",\"type\":\"boolean\",\"optional\":true},"
          + "{\"field\":\"ts\",\"type\":\"string\",\"optional\":true},"
          + "{\"field\":\"tags\",\"type\":\"array\",\"optional\":true,"
          + "\"items\":{\"type\":\"string\",\"optional\":true}}]}";

  /**
   * One event: fields in a varying order, some null or missing, a key that appears only from the
   * 300th record on, a value that is an integer at first and a fraction later (it widens), unicode
   * in strings and escapes.
   */
  private static String payload(Random random, long id, int i, boolean schemas) {
    List<String> fields = new ArrayList<>();
    fields.add("\"id\":" + id);
    long uid = id * 7919 % 1_000_003;
    fields.add(
        "\"user\":"
            + (i % 17 == 5
                ? "null"
                : "{\"uid\":"
                    + uid
                    + ",\"name\":\"user-"
                    + uid
                    + "\",\"country\":"
                    + (i % 11 == 0 ? "null" : "\"" + COUNTRIES[i % COUNTRIES.length] + "\"")
                    + "}"));
    fields.add("\"action\":\"" + (i % 3 == 0 ? "view" : "cl\\u00efck") + "\"");
    if (i % 7 != 3) {
      fields.add(
          "\"message\":\"session "
              + Long.toString(random.nextLong() & Long.MAX_VALUE, 36)
              + " \u00e9t\u00e9 \\\"q\\\" "
              + random.nextInt(1000)
              + "\"");
    }
    fields.add(
        "\"value\":"
            + (i < 50 && !schemas
                ? Integer.toString(i)
                : String.format(Locale.ROOT, "%.2f", random.nextInt(100_000) / 100.0)));
    fields.add("\"ok\":" + (i % 4 != 0));
    fields.add("\"ts\":\"" + java.time.Instant.ofEpochMilli(1_767_225_600_000L + i * 1000L) + "\"");
    fields.add("\"tags\":[\"a\",\"t" + i % 5 + "\"" + (i % 2 == 0 ? ",null" : "") + "]");
    if (!schemas && i >= 300) {
      fields.add("\"extra\":{\"n\":" + i + ",\"s\":\"x" + i % 9 + "\"}");
    }
    java.util.Collections.shuffle(fields, random);
    return "{" + String.join(",", fields) + "}";
  }
}
