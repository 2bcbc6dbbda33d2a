package io.skippr.connect.source.file;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/**
 * Records per second of one file source task (a real task polled in this JVM, no Kafka) against a
 * plain reader of the same file in the same run: Jackson's own streaming reader producing the same
 * maps (NDJSON: {@code MappingIterator<Map>}; CSV: the CSV module with the header schema), and, for
 * reference, {@code BufferedReader.readLine()}. Prints figures only.
 *
 * <p>Run after {@code mvn -o -q -pl file-source -am install -DskipTests}: {@code mvn -o -q -pl
 * file-source exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=io.skippr.connect.source.file.FileSourceBench}. Optional system properties:
 * {@code bench.rows} (default 1,000,000), {@code bench.rounds} (5), {@code bench.dir} (a temp dir).
 */
public final class FileSourceBench {

  private static final int ROWS = Integer.getInteger("bench.rows", 1_000_000);
  private static final int ROUNDS = Integer.getInteger("bench.rounds", 5);

  private FileSourceBench() {}

  public static void main(String[] args) throws Exception {
    Path dir =
        System.getProperty("bench.dir") != null
            ? Files.createDirectories(Path.of(System.getProperty("bench.dir")))
            : Files.createTempDirectory("file-source-bench");
    Path ndjson = Files.createDirectories(dir.resolve("ndjson")).resolve("events.ndjson");
    Path csv = Files.createDirectories(dir.resolve("csv")).resolve("events.csv");
    writeNdjson(ndjson);
    writeCsv(csv);
    System.out.printf(
        "files: %,d rows each; ndjson %,d bytes, csv %,d bytes%n",
        ROWS, Files.size(ndjson), Files.size(csv));
    List<String> report = new ArrayList<>();
    report.add(compare("ndjson", ndjson, FileSourceBench::jacksonNdjson));
    report.add(compare("csv", csv, FileSourceBench::jacksonCsv));
    System.out.println();
    report.forEach(System.out::println);
  }

  private interface Reader {
    long read(Path file) throws IOException;
  }

  private static String compare(String format, Path file, Reader plain) throws Exception {
    List<Double> task = new ArrayList<>();
    List<Double> library = new ArrayList<>();
    List<Double> lines = new ArrayList<>();
    for (int round = 0; round <= ROUNDS; round++) {
      double t = rate(() -> taskRead(format, file.getParent()));
      double p = rate(() -> plain.read(file));
      double l = rate(() -> readLines(file));
      if (round > 0) { // round 0 warms the JIT up
        task.add(t);
        library.add(p);
        lines.add(l);
      }
      System.out.printf(
          "%s round %d: task %,.0f rows/s, plain Jackson reader %,.0f rows/s, readLine %,.0f"
              + " lines/s%n",
          format, round, t, p, l);
    }
    double mt = median(task);
    double mp = median(library);
    return String.format(
        "RESULT %s: task %,.0f rows/s, plain Jackson reader %,.0f rows/s, ratio %.2f (target ≥"
            + " 0.50); readLine %,.0f lines/s (medians of %d rounds)",
        format, mt, mp, mt / mp, median(lines), ROUNDS);
  }

  private interface Run {
    long run() throws Exception;
  }

  private static double rate(Run run) throws Exception {
    long start = System.nanoTime();
    long rows = run.run();
    if (rows != ROWS) {
      throw new IllegalStateException("read " + rows + " rows, expected " + ROWS);
    }
    return rows / ((System.nanoTime() - start) / 1e9);
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }

  /** A real task from start to its last record, offsets committed as Connect would. */
  private static long taskRead(String format, Path dir) throws InterruptedException {
    Map<String, String> props = new HashMap<>();
    props.put("name", "bench");
    props.put("file.dir", dir.toString());
    props.put("file.format", format);
    props.put("topic", "bench");
    props.put("file.min.age.ms", "0");
    props.put("state.mirror", "off");
    FileSourceTask task = new FileSourceTask();
    task.initialize(context(props));
    task.start(props);
    long rows = 0;
    try {
      while (rows < ROWS) {
        List<SourceRecord> batch = task.poll();
        if (batch != null) {
          rows += batch.size();
        }
      }
    } finally {
      task.stop();
    }
    return rows;
  }

  private static long jacksonNdjson(Path file) throws IOException {
    long rows = 0;
    try (MappingIterator<Map<String, Object>> it =
        new ObjectMapper().readerFor(Map.class).readValues(file.toFile())) {
      while (it.hasNextValue()) {
        it.nextValue();
        rows++;
      }
    }
    return rows;
  }

  private static long jacksonCsv(Path file) throws IOException {
    long rows = 0;
    CsvMapper mapper = new CsvMapper();
    CsvSchema schema = CsvSchema.emptySchema().withHeader();
    try (MappingIterator<Map<String, String>> it =
        mapper.readerFor(Map.class).with(schema).readValues(file.toFile())) {
      while (it.hasNextValue()) {
        it.nextValue();
        rows++;
      }
    }
    return rows;
  }

  private static long readLines(Path file) throws IOException {
    long lines = 0;
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      while (r.readLine() != null) {
        lines++;
      }
    }
    return file.toString().endsWith(".csv") ? lines - 1 : lines;
  }

  /** Web shop events, about 200 bytes a line. */
  static void writeNdjson(Path file) throws IOException {
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int i = 0; i < ROWS; i++) {
        w.write(
            "{\"event_id\":\"e-"
                + (1_000_000_000L + i)
                + "\",\"type\":\""
                + type(i)
                + "\",\"user_id\":"
                + (i * 7919 % 250_000)
                + ",\"session\":\"s"
                + Integer.toHexString(i * 31 % 1_000_003)
                + "\",\"url\":\"/shop/category/"
                + (i % 40)
                + "/item/"
                + (i % 9973)
                + "\",\"price\":"
                + (i % 20_000) / 100.0
                + ",\"qty\":"
                + (1 + i % 4)
                + ",\"at\":\"2026-03-"
                + (10 + i % 18)
                + "T"
                + (10 + i % 12)
                + ":15:00.123Z\"}\n");
      }
    }
  }

  static void writeCsv(Path file) throws IOException {
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      w.write("event_id,type,user_id,session,url,price,qty,at,note\n");
      for (int i = 0; i < ROWS; i++) {
        w.write(
            "e-"
                + (1_000_000_000L + i)
                + ','
                + type(i)
                + ','
                + (i * 7919 % 250_000)
                + ",s"
                + Integer.toHexString(i * 31 % 1_000_003)
                + ",/shop/category/"
                + (i % 40)
                + "/item/"
                + (i % 9973)
                + ','
                + (i % 20_000) / 100.0
                + ','
                + (1 + i % 4)
                + ",2026-03-"
                + (10 + i % 18)
                + "T10:15:00Z,"
                + (i % 10 == 0 ? "\"gift, wrapped \"\"nicely\"\"\"" : "")
                + "\n");
      }
    }
  }

  private static String type(int i) {
    return switch (i % 4) {
      case 0 -> "page_view";
      case 1 -> "add_to_cart";
      case 2 -> "search";
      default -> "checkout";
    };
  }

  private static SourceTaskContext context(Map<String, String> props) {
    return new SourceTaskContext() {
      @Override
      public Map<String, String> configs() {
        return props;
      }

      @Override
      public OffsetStorageReader offsetStorageReader() {
        return new OffsetStorageReader() {
          @Override
          public <T> Map<String, Object> offset(Map<String, T> partition) {
            return null;
          }

          @Override
          public <T> Map<Map<String, T>, Map<String, Object>> offsets(
              Collection<Map<String, T>> partitions) {
            return Map.of();
          }
        };
      }

      @Override
      public PluginMetrics pluginMetrics() {
        return null;
      }
    };
  }
}
