package io.skippr.connect.sink.bench;

import io.skippr.connect.json.StreamingJsonConverter;
import io.skippr.connect.lake.bench.BenchRows;
import io.skippr.connect.lake.convert.FormatConfig;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.storage.Converter;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetWriter;

/**
 * The lake sink's figures without Kafka, on {@link BenchRows}. Prints human lines and one {@code
 * RESULT key=value ...} line per figure for the end-to-end bench that launches it.
 *
 * <ul>
 *   <li>{@code --mode throughput}: parquet-java's example writer (the ceiling; also timed with
 *       building its input groups) against a real {@link io.skippr.connect.sink.LakeSinkTask} into
 *       a temporary lake, with struct and with schemaless values; a warm-up round, then {@code
 *       --rounds} rounds, medians reported. {@code --variants} picks some of {@link #VARIANTS} (to
 *       profile one alone, or to add {@code read-nested-<struct|schemaless>-<kafka|streaming>}: the
 *       nested payload read from JSON by a converter inside the clock).
 *   <li>{@code --mode paths --paths N}: the task with the {@code field} partitioner over a field of
 *       N values and {@code buffer.max.bytes} = {@code --budget}; run it in a fresh JVM, it reports
 *       heap figures ({@link HeapSampler}) and the task's peak buffered bytes.
 *   <li>{@code --set key=value,key=value} adds connector settings to every task of the run (e.g.
 *       {@code write.concurrency=1}); {@code write.async} is {@code false} unless set.
 *   <li>{@code --mode fill --bootstrap host:port --topic t --schemas true|false}: produces the same
 *       rows as JSON for the end-to-end bench.
 * </ul>
 *
 * <p>Both write {@code flush.size} = rows / 10 rows per unit (10 files per path at most) and the
 * ceiling splits its files the same way.
 */
public final class SinkStagesBench {
  private SinkStagesBench() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = options(args);
    SETTINGS.putAll(settings(options.getOrDefault("set", "")));
    long rows = Long.parseLong(options.getOrDefault("rows", "1000000"));
    Path dir = Files.createTempDirectory("skippr-sink-bench");
    try {
      String mode = options.getOrDefault("mode", "throughput");
      if ("fill".equals(mode)) {
        TopicFiller.fill(
            options.get("bootstrap"),
            options.get("topic"),
            rows,
            Boolean.parseBoolean(options.getOrDefault("schemas", "false")),
            BenchRows.Payload.of(options.getOrDefault("payload", "flat")));
      } else if ("paths".equals(mode)) {
        paths(
            dir,
            rows,
            Integer.parseInt(options.getOrDefault("paths", "1")),
            Long.parseLong(options.getOrDefault("budget", Long.toString(32L << 20))));
      } else {
        throughput(
            dir,
            rows,
            Integer.parseInt(options.getOrDefault("rounds", "3")),
            List.of(options.getOrDefault("variants", String.join(",", VARIANTS)).split(",")));
      }
    } finally {
      delete(dir);
    }
  }

  static long flushSize(long rows) {
    return Math.max(1, rows / 10);
  }

  /** The figures of (1) and (2), by the name their RESULT line carries. */
  static final List<String> VARIANTS =
      List.of(
          "ceiling",
          "ceiling-groups",
          "task-struct",
          "task-schemaless",
          "task-nested-struct",
          "task-nested-schemaless");

  private static void throughput(Path dir, long rows, int rounds, List<String> variants)
      throws Exception {
    CeilingWriter ceiling = new CeilingWriter(BenchRows.ROW, FormatConfig.Codec.SNAPPY);
    Map<String, List<Stopwatch>> measured = new LinkedHashMap<>();
    long warmUp = Math.min(rows, 200_000);
    for (int round = 0; round <= rounds; round++) {
      long n = round == 0 ? warmUp : rows;
      StringBuilder line = new StringBuilder(round == 0 ? "warm-up" : "round " + round);
      for (String variant : variants) {
        Path lake = dir.resolve(variant + "-" + round);
        Stopwatch time =
            switch (variant) {
              case "ceiling" -> ceiling(ceiling, lake, n, false);
              case "ceiling-groups" -> ceiling(ceiling, lake, n, true);
              case "task-struct" -> task(lake, n, BenchRows.Payload.FLAT, BenchRows.Values.STRUCT);
              case "task-schemaless" ->
                  task(lake, n, BenchRows.Payload.FLAT, BenchRows.Values.SCHEMALESS);
              case "task-nested-struct" ->
                  task(lake, n, BenchRows.Payload.NESTED, BenchRows.Values.STRUCT);
              case "task-nested-schemaless" ->
                  task(lake, n, BenchRows.Payload.NESTED, BenchRows.Values.SCHEMALESS);
              default -> read(lake, n, variant);
            };
        line.append(
            String.format(Locale.ROOT, ", %s %,.0f rows/s", variant, time.rowsPerSecond(n)));
        if (round > 0) {
          measured.computeIfAbsent(variant, v -> new ArrayList<>()).add(time);
        }
      }
      System.out.println(line);
    }
    measured.forEach((variant, times) -> result(variant, rows, median(times, rows)));
  }

  /**
   * The ceiling; with {@code timeGroups} the clock also runs while rows become groups (strings
   * encoded to UTF-8), work any writer of Connect's values does.
   */
  private static Stopwatch ceiling(CeilingWriter ceiling, Path dir, long rows, boolean timeGroups)
      throws IOException {
    Files.createDirectories(dir);
    Stopwatch time = new Stopwatch();
    long perFile = flushSize(rows);
    for (long first = 0, file = 0; first < rows; first += perFile, file++) {
      long end = Math.min(rows, first + perFile);
      // StreamOutputFile buffers, like parquet-java's own LocalOutputFile.
      try (FileOutputStream out = new FileOutputStream(dir.resolve(file + ".parquet").toFile())) {
        time.start();
        ParquetWriter<Group> writer = ceiling.open(out);
        time.stop();
        for (long from = first; from < end; from += SinkTaskRun.BATCH) {
          int count = (int) Math.min(SinkTaskRun.BATCH, end - from);
          List<Struct> structs = BenchRows.rows(from, count, 1);
          if (timeGroups) {
            time.start();
          }
          List<Group> groups = ceiling.groups(structs);
          if (!timeGroups) {
            time.start();
          }
          for (int i = 0, n = groups.size(); i < n; i++) {
            writer.write(groups.get(i));
          }
          time.stop();
        }
        time.start();
        writer.close();
        time.stop();
      }
    }
    delete(dir);
    return time;
  }

  private static Stopwatch task(
      Path dir, long rows, BenchRows.Payload payload, BenchRows.Values values) throws Exception {
    Map<String, String> props = SinkTaskRun.props(dir, flushSize(rows), SETTINGS);
    SinkTaskRun.Result result = SinkTaskRun.run(props, rows, 1, payload, values, writer -> {});
    delete(dir);
    if (result.rows() != rows) {
      throw new IllegalStateException("committed " + result.rows() + " rows, not " + rows);
    }
    return result.time();
  }

  /**
   * {@code read-nested-<struct|schemaless>-<kafka|streaming>}: the task on the nested payload with
   * the converter's reading of the JSON inside the clock, Kafka's JsonConverter or {@link
   * StreamingJsonConverter}.
   */
  private static Stopwatch read(Path dir, long rows, String variant) throws Exception {
    String[] parts = variant.split("-");
    if (parts.length != 4 || !"read".equals(parts[0])) {
      throw new IllegalArgumentException("unknown variant " + variant);
    }
    BenchRows.Values values = BenchRows.Values.valueOf(parts[2].toUpperCase(Locale.ROOT));
    Converter converter =
        switch (parts[3]) {
          case "kafka" -> new JsonConverter();
          case "streaming" -> new StreamingJsonConverter();
          default -> throw new IllegalArgumentException("unknown converter in " + variant);
        };
    converter.configure(
        Map.of("schemas.enable", Boolean.toString(values == BenchRows.Values.STRUCT)), false);
    Map<String, String> props = SinkTaskRun.props(dir, flushSize(rows), SETTINGS);
    SinkTaskRun.Result result =
        SinkTaskRun.run(props, rows, 1, BenchRows.Payload.NESTED, values, converter, w -> {});
    delete(dir);
    if (result.rows() != rows) {
      throw new IllegalStateException("committed " + result.rows() + " rows, not " + rows);
    }
    return result.time();
  }

  private static void paths(Path dir, long rows, int paths, long budget) throws Exception {
    Map<String, String> extra = new HashMap<>(SETTINGS);
    extra.put("partitioner.class", "field");
    extra.put("partition.field.name", BenchRows.PARTITION_FIELD);
    extra.put("buffer.max.bytes", Long.toString(budget));
    // Memory alone cuts units: files are as large as the budget lets them be.
    extra.put("flush.size", "0");
    extra.put("flush.bytes", "0");
    long warmUp = Math.max(1, rows / 5);
    SinkTaskRun.run(
        SinkTaskRun.props(dir.resolve("warm-up"), flushSize(warmUp), extra),
        warmUp,
        paths,
        BenchRows.Values.STRUCT,
        writer -> {});
    delete(dir.resolve("warm-up"));
    Path lake = dir.resolve("measured");
    SinkTaskRun.Result result;
    LiveHeapProbe probe = new LiveHeapProbe(budget);
    HeapSampler heap = new HeapSampler();
    try (heap) {
      result =
          SinkTaskRun.run(
              SinkTaskRun.props(lake, flushSize(rows), extra),
              rows,
              paths,
              BenchRows.Values.STRUCT,
              probe);
    }
    long files;
    try (Stream<Path> walk = Files.walk(lake.resolve("lake"))) {
      files = walk.filter(p -> p.toString().endsWith(".parquet")).count();
    }
    // Parquet's own memory while it writes one file of the run's average size.
    int rowsPerFile = (int) Math.max(1, result.rows() / files);
    long writerTransient = WriterTransientProbe.measure(rowsPerFile, 1);
    System.out.printf(
        Locale.ROOT,
        "%d paths: %,.0f rows/s, %,d files, heap sampled at most %,d bytes (%d collections)%n",
        paths,
        result.time().rowsPerSecond(result.rows()),
        files,
        heap.peakUsed(),
        heap.collections());
    System.out.printf(
        Locale.ROOT,
        "RESULT stage=paths paths=%d rows=%d rows_per_s=%.0f cpu_rows_per_s=%.0f files=%d"
            + " peak_buffered=%d budget=%d heap_baseline=%d heap_peak_after_gc=%d"
            + " heap_peak_sampled=%d gcs=%d pauses=%d max_heap=%d live_heap_at_peak=%d"
            + " buffered_at_probe=%d rows_per_file=%d writer_transient=%d%n",
        paths,
        result.rows(),
        result.time().rowsPerSecond(result.rows()),
        result.time().rowsPerCpuSecond(result.rows()),
        files,
        result.peakBufferedBytes(),
        budget,
        heap.baseline(),
        heap.peakAfterGc(),
        heap.peakUsed(),
        heap.collections(),
        result.pauses(),
        Runtime.getRuntime().maxMemory(),
        probe.liveHeap(),
        probe.buffered(),
        rowsPerFile,
        writerTransient);
  }

  private static double[] median(List<Stopwatch> runs, long rows) {
    double[] wall = runs.stream().mapToDouble(s -> s.rowsPerSecond(rows)).sorted().toArray();
    double[] cpu = runs.stream().mapToDouble(s -> s.rowsPerCpuSecond(rows)).sorted().toArray();
    double[] alloc = runs.stream().mapToDouble(s -> s.allocatedPerRow(rows)).sorted().toArray();
    return new double[] {
      wall[wall.length / 2], cpu[cpu.length / 2], alloc[alloc.length / 2], min(wall), max(wall)
    };
  }

  private static double min(double[] sorted) {
    return sorted[0];
  }

  private static double max(double[] sorted) {
    return sorted[sorted.length - 1];
  }

  private static void result(String stage, long rows, double[] figures) {
    System.out.printf(
        Locale.ROOT,
        "RESULT stage=%s rows=%d rows_per_s=%.0f cpu_rows_per_s=%.0f alloc_per_row=%.0f"
            + " min_rows_per_s=%.0f max_rows_per_s=%.0f%n",
        stage,
        rows,
        figures[0],
        figures[1],
        figures[2],
        figures[3],
        figures[4]);
  }

  /** {@code --key value} pairs. */
  /**
   * Connector settings every task of this run gets ({@code --set k=v,k=v} adds or overrides). Units
   * are written inside put by default: the bench times put and preCommit on the calling thread, so
   * a unit written in the background while the next batch is generated would not be timed.
   */
  private static final Map<String, String> SETTINGS = new HashMap<>(Map.of("write.async", "false"));

  static Map<String, String> settings(String list) {
    Map<String, String> settings = new HashMap<>();
    for (String pair : list.split(",")) {
      if (!pair.isBlank()) {
        int eq = pair.indexOf('=');
        if (eq < 1) {
          throw new IllegalArgumentException("expected key=value in --set, got " + pair);
        }
        settings.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
      }
    }
    return settings;
  }

  static Map<String, String> options(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException(
            "expected --option value pairs: " + Arrays.toString(args));
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    return options;
  }

  static void delete(Path dir) throws IOException {
    Utils.delete(dir.toFile());
  }
}
