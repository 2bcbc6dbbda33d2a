package io.skippr.connect.it.bench;

import io.skippr.connect.testkit.ConnectCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.utils.Utils;

/**
 * The lake sink's figures in one run, on the same generated rows ({@code BenchRows} of the sink
 * module): (1) parquet-java's writer alone, the ceiling; (2) the sink task alone, no Kafka; (3)
 * Connect with the lake sink, (4) Connect with a do-nothing sink and (3i) Connect with Apache
 * Iceberg's sink on the same topics (flat rows on one partition, nested JSON events on three), with
 * JSON values schemaless and with schemas, read by Kafka's JsonConverter and (3s, 4s: the lake and
 * the do-nothing sink) by the project's StreamingJsonConverter; (5) heap and buffered bytes with 1,
 * 100 and 1,000 partition paths. Prints figures and ratios only; nothing is asserted about speed.
 *
 * <p>Run from the repository root: {@code mvn -Pbench -pl integration-tests -am verify -DskipTests}
 * (add {@code -Dbench.rows=100000} for a quick run). Options in {@code -Dbench.args}: {@code
 * --rows} (1,000,000, or {@code -Dbench.rows}), {@code --rounds} (3, for 1 and 2), {@code
 * --connect-rounds} (3), {@code --paths} (1,100,1000), {@code --budget} (buffer.max.bytes for 5,
 * 33554432), {@code --jfr DIR} (a flight recording of every forked JVM), {@code --stages} (1,2,3,5:
 * which parts to run; 3 includes 4), {@code --payloads} (flat,nested) and {@code --contenders}
 * ({@value #CONTENDERS}) of (3). See docs/performance.md.
 */
public final class LakeSinkBench {
  private LakeSinkBench() {}

  /** The contenders of (3) unless {@code --contenders} names some. */
  static final String CONTENDERS =
      "noop,noop_streaming,lake,lake_streaming,lake_compacting,lake_iceberg,iceberg";

  public static void main(String[] args) throws Exception {
    Map<String, String> options = options(args);
    long rows = Long.parseLong(options.getOrDefault("rows", "1000000"));
    String stages = options.getOrDefault("stages", "1,2,3,5");
    Path jfr = options.containsKey("jfr") ? Paths.get(options.get("jfr")) : null;
    if (jfr != null) {
      Files.createDirectories(jfr);
    }
    BenchJvm jvm = new BenchJvm(jfr);
    BenchReport report = new BenchReport(rows);
    if (stages.contains("1") || stages.contains("2")) {
      report.stage("1+2");
      List<Map<String, String>> results =
          jvm.run(
              "throughput",
              "2g",
              "--mode",
              "throughput",
              "--rows",
              Long.toString(rows),
              "--rounds",
              options.getOrDefault("rounds", "3"),
              "--set",
              options.getOrDefault("task-set", ""));
      report.throughput(results);
    }
    if (stages.contains("5")) {
      report.stage("5");
      String budget = options.getOrDefault("budget", Long.toString(32L << 20));
      for (String paths : options.getOrDefault("paths", "1,100,1000").split(",")) {
        report.paths(
            jvm.run(
                "paths-" + paths,
                "1g",
                "--mode",
                "paths",
                "--paths",
                paths,
                "--rows",
                Long.toString(rows),
                "--budget",
                budget,
                "--set",
                options.getOrDefault("task-set", "")));
      }
    }
    if (stages.contains("3")) {
      report.stage("3+4");
      connect(
          jvm,
          report,
          rows,
          Integer.parseInt(options.getOrDefault("connect-rounds", "3")),
          settings(options.getOrDefault("lake-set", "")),
          List.of(options.getOrDefault("payloads", "flat,nested").split(",")),
          Arrays.stream(options.getOrDefault("contenders", CONTENDERS).split(","))
              .map(c -> ConnectStage.Contender.valueOf(c.trim().toUpperCase(Locale.ROOT)))
              .toList());
    }
    report.print();
    System.exit(0);
  }

  /** System property naming the plugin location of Apache Iceberg's sink, built by the profile. */
  static final String ICEBERG_DIR = "bench.iceberg.dir";

  private static void connect(
      BenchJvm jvm,
      BenchReport report,
      long rows,
      int rounds,
      Map<String, String> lakeSettings,
      List<String> payloads,
      List<ConnectStage.Contender> contenders)
      throws Exception {
    Path lakes = Files.createTempDirectory("skippr-lake-bench");
    Map<String, String> worker = new HashMap<>();
    // Frequent offset commits, so a run's end is seen within a quarter second.
    worker.put("offset.flush.interval.ms", "250");
    // With the registration contender every lake contender runs the Iceberg archive (the base
    // plugin plus Iceberg: one of the two is installed, never both).
    String ours =
        contenders.contains(ConnectStage.Contender.LAKE_ICEBERG)
            ? icebergArchiveDir().toString()
            : ConnectCluster.pluginDir().toString();
    worker.put("plugin.path", ours);
    if (contenders.contains(ConnectStage.Contender.ICEBERG)) {
      // A plugin.path entry holds plugin directories: the one of Iceberg's jars is its child.
      worker.put("plugin.path", ours + "," + icebergDir().getParent());
    }
    try (ConnectCluster cluster = ConnectCluster.start("lake-sink-bench", 1, worker)) {
      List<ConnectStage.Topic> topics = new ArrayList<>();
      for (String payload : payloads) {
        for (boolean schemas : new boolean[] {false, true}) {
          ConnectStage.Topic topic = topic(payload, schemas);
          cluster.createTopic(topic.name(), topic.partitions());
          report.fill(
              jvm.run(
                  "fill-" + topic.name(),
                  "1g",
                  "--mode",
                  "fill",
                  "--bootstrap",
                  cluster.bootstrapServers(),
                  "--topic",
                  topic.name(),
                  "--schemas",
                  Boolean.toString(schemas),
                  "--payload",
                  payload,
                  "--rows",
                  Long.toString(rows)));
          topics.add(topic);
        }
      }
      ConnectStage stage = new ConnectStage(cluster, lakes, lakeSettings);
      Map<String, List<ConnectStage.Figures>> figures = new LinkedHashMap<>();
      // Round 0 warms the worker up (JIT, page cache) and is not counted.
      for (int round = 0; round <= rounds; round++) {
        for (ConnectStage.Topic topic : topics) {
          for (ConnectStage.Contender contender : contenders) {
            ConnectStage.Figures run = stage.run(contender, topic, rows);
            String key = BenchReport.connectKey(contender, topic);
            if (round > 0) {
              figures.computeIfAbsent(key, k -> new ArrayList<>()).add(run);
            }
            System.out.printf(
                "  [connect] %s %s: %,.0f rows/s, %,.0f rows per CPU-second (load %s)%n",
                round == 0 ? "warm-up" : "round " + round,
                key,
                run.rowsPerSecond(),
                run.rowsPerCpuSecond(),
                BenchReport.loadAverage());
          }
        }
      }
      stage.close();
      report.connect(figures, topics);
    } finally {
      delete(lakes);
    }
  }

  /**
   * The topic of a payload: the flat rows on one partition, written in units of {@code flush.size}
   * rows; the nested events on three partitions, each cut every second ({@code
   * rotate.schedule.interval.ms=1000}), the way the issue measured them. Iceberg commits every
   * second on both.
   */
  static ConnectStage.Topic topic(String payload, boolean schemas) {
    String name = "bench-" + payload + (schemas ? "-schemas" : "-schemaless");
    return switch (payload) {
      case "flat" -> new ConnectStage.Topic(name, 1, schemas, Map.of(), 1000);
      case "nested" ->
          new ConnectStage.Topic(
              name, 3, schemas, Map.of("rotate.schedule.interval.ms", "1000"), 1000);
      default -> throw new IllegalArgumentException("unknown payload " + payload);
    };
  }

  /** System property naming the skippr-connect-iceberg archive's plugin directory. */
  static final String ICEBERG_ARCHIVE_DIR = "skippr.iceberg.plugin.dir";

  private static Path icebergArchiveDir() {
    String dir = System.getProperty(ICEBERG_ARCHIVE_DIR);
    if (dir == null || !Files.isDirectory(Paths.get(dir))) {
      throw new IllegalStateException(
          "the skippr-connect-iceberg plugin not found at "
              + dir
              + " (system property "
              + ICEBERG_ARCHIVE_DIR
              + "): build iceberg/distribution, or leave lake_iceberg out of --contenders");
    }
    return Paths.get(dir);
  }

  private static Path icebergDir() {
    String dir = System.getProperty(ICEBERG_DIR);
    if (dir == null || !Files.isDirectory(Paths.get(dir))) {
      throw new IllegalStateException(
          "Apache Iceberg's sink plugin not found at "
              + dir
              + " (system property "
              + ICEBERG_DIR
              + "): run the bench profile, which builds it, or leave iceberg out of"
              + " --contenders");
    }
    return Paths.get(dir).toAbsolutePath();
  }

  /** {@code k=v,k=v}: settings added to the lake sink's configuration in (3). */
  private static Map<String, String> settings(String list) {
    Map<String, String> settings = new HashMap<>();
    for (String pair : list.split(",")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        settings.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
      } else if (!pair.isBlank()) {
        throw new IllegalArgumentException("expected key=value in --lake-set, got " + pair);
      }
    }
    return settings;
  }

  /** {@code --key value} pairs. */
  private static Map<String, String> options(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
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
