package io.skippr.connect.it.bench;

import io.skippr.connect.testkit.ConnectCluster;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorOffset;

/**
 * Rows per second one file source task lands in Kafka inside a worker with exactly-once source
 * support (JsonConverter, one transaction per poll, offsets read back as committed), from the
 * moment the connector is created until Connect's committed offset is the end of the file, against
 * a plain idempotent producer (acks=all) sending the same lines to the same broker. Prints figures
 * only.
 *
 * <p>Run after {@code mvn -o package -DskipTests}: {@code mvn -q -pl integration-tests exec:java
 * -Dexec.classpathScope=test -Dexec.mainClass=io.skippr.connect.it.bench.FileSourceConnectBench}.
 * Optional system properties: {@code bench.rows} (default 500,000), {@code bench.rounds} (3),
 * {@code bench.formats} ({@code ndjson,csv}), {@code bench.encoding}: {@code connect} (default:
 * Kafka's JsonConverter on the task's maps), {@code streaming} (StreamingJsonConverter on them) or
 * {@code json} ({@code record.encoding=json}: the value's bytes straight from the line, through the
 * ByteArrayConverter).
 */
public final class FileSourceConnectBench {

  private static final int ROWS = Integer.getInteger("bench.rows", 500_000);
  private static final int ROUNDS = Integer.getInteger("bench.rounds", 3);
  private static final List<String> FORMATS =
      List.of(System.getProperty("bench.formats", "ndjson,csv").split(","));
  private static final String ENCODING = System.getProperty("bench.encoding", "connect");

  private FileSourceConnectBench() {}

  public static void main(String[] args) throws Exception {
    Path root = Files.createTempDirectory("file-source-connect-bench");
    List<String> report = new ArrayList<>();
    try (ConnectCluster cluster =
        ConnectCluster.start(
            "file-source-bench", 1, Map.of("exactly.once.source.support", "enabled"))) {
      for (String format : FORMATS) {
        List<Double> source = new ArrayList<>();
        List<Double> producer = new ArrayList<>();
        for (int round = 0; round <= ROUNDS; round++) {
          Path dir = Files.createDirectories(root.resolve(format + "-" + round));
          Path file = dir.resolve("events." + format);
          List<byte[]> lines = write(file, format);
          double s = source(cluster, format, dir, round, Files.size(file));
          double p = producer(cluster, format + ".raw." + round, lines);
          System.out.printf(
              "%s round %d: file source %,.0f rows/s, plain producer %,.0f rows/s%n",
              format, round, s, p);
          if (round > 0) { // round 0 warms up the worker and the JIT
            source.add(s);
            producer.add(p);
          }
        }
        report.add(
            String.format(
                "RESULT %s, %s: file source task in Connect (exactly once) %,.0f rows/s, plain"
                    + " producer %,.0f rows/s, ratio %.2f (medians of %d rounds of %,d rows)",
                format,
                ENCODING,
                median(source),
                median(producer),
                median(source) / median(producer),
                ROUNDS,
                ROWS));
      }
    }
    System.out.println();
    report.forEach(System.out::println);
    System.exit(0);
  }

  private static double source(
      ConnectCluster cluster, String format, Path dir, int round, long size) throws Exception {
    String topic = "bench." + format + "." + round;
    String name = "bench-" + format + "-" + round;
    cluster.createTopic(topic, 1);
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.source.file.FileSourceConnector");
    config.put("tasks.max", "1");
    config.put("file.dir", dir.toString());
    config.put("file.format", format);
    config.put("topic", topic);
    config.put("file.min.age.ms", "0");
    config.put("state.mirror", "off");
    config.put("exactly.once.support", "required");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    switch (ENCODING) {
      case "connect" ->
          config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
      case "streaming" ->
          config.put("value.converter", "io.skippr.connect.json.StreamingJsonConverter");
      case "json" -> {
        config.put("record.encoding", "json");
        config.put("record.encoding.json.schemas.enable", "false");
        config.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
      }
      default -> throw new IllegalArgumentException("bench.encoding: " + ENCODING);
    }
    config.put("value.converter.schemas.enable", "false");
    long start = System.nanoTime();
    cluster.connect().configureConnector(name, config);
    // Connect answers an offsets request by reading the whole offsets topic with a consumer of its
    // own: asked every 20 ms, that took a core from the worker being measured. Every 250 ms the
    // end is seen at most a quarter of a second late (a few percent of a round).
    while (committedPosition(cluster, name) < size) {
      Thread.sleep(250); // polling Connect's committed offsets, not waiting for time to pass
    }
    double rate = ROWS / ((System.nanoTime() - start) / 1e9);
    cluster.connect().deleteConnector(name);
    return rate;
  }

  private static long committedPosition(ConnectCluster cluster, String connector) {
    try {
      for (ConnectorOffset offset : cluster.connect().connectorOffsets(connector).offsets()) {
        Object position = offset.offset().get("pos");
        if (position instanceof Number n) {
          return n.longValue();
        }
      }
    } catch (RuntimeException e) {
      // not created yet, or no offsets yet
    }
    return -1;
  }

  private static double producer(ConnectCluster cluster, String topic, List<byte[]> lines)
      throws Exception {
    cluster.createTopic(topic, 1);
    Map<String, Object> props = new HashMap<>();
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    try (KafkaProducer<byte[], byte[]> producer = cluster.kafka().createProducer(props)) {
      long start = System.nanoTime();
      List<Future<?>> acks = new ArrayList<>(lines.size());
      for (byte[] line : lines) {
        acks.add(producer.send(new ProducerRecord<>(topic, line)));
      }
      for (Future<?> f : acks) {
        f.get();
      }
      return lines.size() / ((System.nanoTime() - start) / 1e9);
    }
  }

  /** Writes the rows (web shop events) and returns them as the producer would send them. */
  private static List<byte[]> write(Path file, String format) throws IOException {
    List<byte[]> rows = new ArrayList<>(ROWS);
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      if (format.equals("csv")) {
        w.write("event_id,type,user_id,url,price,qty,at\n");
      }
      for (int i = 0; i < ROWS; i++) {
        String type = List.of("page_view", "add_to_cart", "search", "checkout").get(i % 4);
        String url = "/shop/category/" + (i % 40) + "/item/" + (i % 9973);
        String at = "2026-03-" + (10 + i % 18) + "T10:15:00.123Z";
        String line =
            format.equals("csv")
                ? "e-"
                    + i
                    + ","
                    + type
                    + ","
                    + (i * 7919 % 250_000)
                    + ","
                    + url
                    + ","
                    + (i % 20_000) / 100.0
                    + ","
                    + (1 + i % 4)
                    + ","
                    + at
                : "{\"event_id\":\"e-"
                    + i
                    + "\",\"type\":\""
                    + type
                    + "\",\"user_id\":"
                    + (i * 7919 % 250_000)
                    + ",\"url\":\""
                    + url
                    + "\",\"price\":"
                    + (i % 20_000) / 100.0
                    + ",\"qty\":"
                    + (1 + i % 4)
                    + ",\"at\":\""
                    + at
                    + "\"}";
        w.write(line);
        w.write('\n');
        rows.add(line.getBytes(StandardCharsets.UTF_8));
      }
    }
    Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - 10_000));
    return rows;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
