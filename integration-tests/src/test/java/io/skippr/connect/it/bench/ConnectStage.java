package io.skippr.connect.it.bench;

import io.skippr.connect.testkit.ConnectCluster;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * One sink connector consuming a pre-filled topic with one task, timed from the task's first
 * delivered batch (the worker's {@code sink-record-read-total} metric turning non-zero) until the
 * connector's consumer group has committed the end offset of every partition of the topic.
 */
final class ConnectStage {
  static final String NOOP = NoopSinkConnector.class.getName();
  static final String LAKE = "io.skippr.connect.sink.LakeSinkConnector";
  static final String ICEBERG = "org.apache.iceberg.connect.IcebergSinkConnector";
  static final String KAFKA_JSON = "org.apache.kafka.connect.json.JsonConverter";
  static final String STREAMING_JSON = "io.skippr.connect.json.StreamingJsonConverter";

  /**
   * The sinks compared: Connect's ceiling, the lake sink, and Apache Iceberg's own sink, with
   * Kafka's JsonConverter; the do-nothing and the lake sink also with the project's
   * StreamingJsonConverter (same settings).
   */
  enum Contender {
    NOOP(ConnectStage.NOOP, KAFKA_JSON),
    NOOP_STREAMING(ConnectStage.NOOP, STREAMING_JSON),
    /** The lake sink without compaction, as before compaction existed. */
    LAKE(ConnectStage.LAKE, KAFKA_JSON),
    /** The lake sink of {@link #LAKE} with StreamingJsonConverter. */
    LAKE_STREAMING(ConnectStage.LAKE, STREAMING_JSON),
    /** The lake sink merging its files every second beside its writes. */
    LAKE_COMPACTING(ConnectStage.LAKE, KAFKA_JSON),
    /**
     * The lake sink without compaction registering its units in Iceberg tables (the
     * skippr-connect-iceberg archive, a JDBC catalog on SQLite, commits every second).
     */
    LAKE_ICEBERG(ConnectStage.LAKE, KAFKA_JSON),
    ICEBERG(ConnectStage.ICEBERG, KAFKA_JSON);

    /** The lake sink's own contenders, which share its configuration. */
    boolean isLake() {
      return connectorClass.equals(ConnectStage.LAKE);
    }

    final String connectorClass;
    final String valueConverter;

    Contender(String connectorClass, String valueConverter) {
      this.connectorClass = connectorClass;
      this.valueConverter = valueConverter;
    }

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * A topic to consume and how: its partitions, and the settings the lake sink gets for it on top
   * of its own (Iceberg commits every {@code icebergCommitMs}).
   */
  record Topic(
      String name,
      int partitions,
      boolean schemas,
      Map<String, String> lakeSettings,
      long icebergCommitMs) {}

  private static final MBeanServer MBEANS = ManagementFactory.getPlatformMBeanServer();
  private static final com.sun.management.OperatingSystemMXBean CPU =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private static final Duration TIMEOUT = Duration.ofMinutes(15);

  private final ConnectCluster cluster;
  private final Admin admin;
  private final Path lakes;
  private final Map<String, String> lakeSettings;
  private int runs;

  /** {@code lakeSettings} are added to the lake sink's configuration (e.g. write.async). */
  ConnectStage(ConnectCluster cluster, Path lakes, Map<String, String> lakeSettings) {
    this.cluster = cluster;
    this.admin = cluster.kafka().createAdminClient();
    this.lakes = lakes;
    this.lakeSettings = Map.copyOf(lakeSettings);
  }

  /**
   * What one run measured: rows per second, and rows per CPU-second of this whole JVM (broker,
   * worker, consumer and task alike), which a busy machine disturbs less.
   */
  record Figures(double rowsPerSecond, double rowsPerCpuSecond, long registrationLagMs) {
    Figures(double rowsPerSecond, double rowsPerCpuSecond) {
      this(rowsPerSecond, rowsPerCpuSecond, -1);
    }
  }

  /** One run of {@code contender} over the topic, with its JSON converter as the topic says. */
  Figures run(Contender contender, Topic topic, long rows) throws Exception {
    String name = contender.label() + "-" + ++runs;
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", contender.connectorClass);
    config.put("tasks.max", "1");
    config.put("topics", topic.name());
    config.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    config.put("value.converter", contender.valueConverter);
    config.put("value.converter.schemas.enable", Boolean.toString(topic.schemas()));
    config.put("errors.tolerance", "none");
    Path dir = lakes.resolve(name);
    if (contender.isLake()) {
      config.put("topics.dir", dir.resolve("lake").toString());
      config.put("store.rocksdb.path", dir.resolve("state").toString());
      config.put("flush.size", Long.toString(Math.max(1, rows / 10)));
      config.putAll(topic.lakeSettings());
      config.putAll(lakeSettings);
      if (contender != Contender.LAKE_COMPACTING) {
        config.put("compaction.enabled", "false");
      } else {
        config.put("compaction.enabled", "true");
        config.put("compaction.interval.ms", "1000");
        config.put("compaction.min.files", "5");
        config.put("compaction.grace.ms", "0");
      }
      if (contender == Contender.LAKE_ICEBERG) {
        config.putAll(registrationConfig(dir, topic));
      }
    } else if (contender == Contender.ICEBERG) {
      config.putAll(icebergConfig(name, dir, topic));
    }
    ObjectName metrics =
        new ObjectName("kafka.connect:type=sink-task-metrics,connector=" + name + ",task=0");
    cluster.connect().configureConnector(name, config);
    try {
      Figures figures = measure(name, metrics, topic, rows);
      if (contender == Contender.LAKE_ICEBERG) {
        long lagMs = registrationLag(dir, topic, rows);
        System.out.printf(
            "  [connect] %s: every row in Iceberg %,d ms after the last offset commit%n",
            name, lagMs);
        return new Figures(figures.rowsPerSecond(), figures.rowsPerCpuSecond(), lagMs);
      }
      return figures;
    } finally {
      cluster.connect().deleteConnector(name);
      awaitGone(metrics);
      LakeSinkBench.delete(dir);
    }
  }

  /** The Iceberg registration of the lake sink: a JDBC catalog on SQLite, a local warehouse. */
  private static Map<String, String> registrationConfig(Path dir, Topic topic) throws Exception {
    java.nio.file.Files.createDirectories(dir.resolve("warehouse"));
    Map<String, String> config = new HashMap<>();
    config.put("iceberg.enabled", "true");
    config.put("iceberg.table.namespace", "bench");
    config.put("iceberg.commit.interval.ms", Long.toString(topic.icebergCommitMs()));
    config.putAll(prefixed("iceberg.catalog.", registrationCatalog(dir)));
    return config;
  }

  private static Map<String, String> registrationCatalog(Path dir) {
    Map<String, String> catalog = new HashMap<>();
    catalog.put("type", "jdbc");
    catalog.put("uri", "jdbc:sqlite:" + dir.resolve("catalog.db"));
    catalog.put("jdbc.schema-version", "V1");
    catalog.put("jdbc.journal_mode", "WAL");
    catalog.put("warehouse", dir.resolve("warehouse").toUri().toString());
    return catalog;
  }

  private static Map<String, String> prefixed(String prefix, Map<String, String> props) {
    Map<String, String> out = new HashMap<>();
    props.forEach((k, v) -> out.put(prefix + k, v));
    return out;
  }

  /**
   * How long after the run's end (its last offset commit, after the lake commits) the Iceberg
   * table's current snapshot holds every row; read from the snapshot summary's total-records.
   */
  private static long registrationLag(Path dir, Topic topic, long rows) throws Exception {
    long start = System.nanoTime();
    long deadline = start + TimeUnit.MINUTES.toNanos(2);
    org.apache.iceberg.catalog.TableIdentifier id =
        org.apache.iceberg.catalog.TableIdentifier.of("bench", topic.name());
    org.apache.iceberg.catalog.Catalog catalog =
        // The JDBC catalog keys its tables by catalog name too: the connector's default name.
        org.apache.iceberg.CatalogUtil.buildIcebergCatalog(
            "iceberg", registrationCatalog(dir), null);
    try {
      while (System.nanoTime() < deadline) {
        if (catalog.tableExists(id)) {
          org.apache.iceberg.Snapshot current = catalog.loadTable(id).currentSnapshot();
          String total = current == null ? null : current.summary().get("total-records");
          if (total != null && Long.parseLong(total) >= rows) {
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
          }
        }
        Thread.sleep(20);
      }
    } finally {
      if (catalog instanceof AutoCloseable closeable) {
        closeable.close();
      }
    }
    throw new IllegalStateException("the lake's rows did not all reach Iceberg within 2 minutes");
  }

  /**
   * Iceberg's sink as its documentation sets it up: a table created from the first records, a JDBC
   * catalog (SQLite) over a local warehouse, a control topic of its own, commits every {@code
   * icebergCommitMs}. It commits the connector's offsets itself, with the files it wrote.
   */
  private Map<String, String> icebergConfig(String name, Path dir, Topic topic) throws Exception {
    java.nio.file.Files.createDirectories(dir.resolve("warehouse"));
    String control = "control-" + name;
    cluster.createTopic(control, 1);
    Map<String, String> config = new HashMap<>();
    config.put("iceberg.tables", "bench." + name.replace('-', '_'));
    config.put("iceberg.tables.auto-create-enabled", "true");
    config.put("iceberg.tables.evolve-schema-enabled", "true");
    config.put("iceberg.catalog.catalog-impl", "org.apache.iceberg.jdbc.JdbcCatalog");
    config.put("iceberg.catalog.uri", "jdbc:sqlite:" + dir.resolve("catalog.db"));
    config.put("iceberg.catalog.jdbc.schema-version", "V1");
    config.put("iceberg.catalog.warehouse", dir.resolve("warehouse").toUri().toString());
    config.put("iceberg.control.topic", control);
    config.put("iceberg.control.commit.interval-ms", Long.toString(topic.icebergCommitMs()));
    config.put("iceberg.kafka.bootstrap.servers", cluster.bootstrapServers());
    return config;
  }

  private Figures measure(String name, ObjectName metrics, Topic topic, long rows)
      throws Exception {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    long start = 0;
    long startCpu = 0;
    long nextOffsetCheck = 0;
    while (System.nanoTime() < deadline) {
      long now = System.nanoTime();
      if (start == 0 && readTotal(metrics) > 0) {
        start = now;
        startCpu = CPU.getProcessCpuTime();
      }
      if (start != 0 && now >= nextOffsetCheck) {
        nextOffsetCheck = now + TimeUnit.MILLISECONDS.toNanos(20);
        if (committed(name, topic) >= rows) {
          double cpuSeconds = (CPU.getProcessCpuTime() - startCpu) / 1e9;
          return new Figures(rows / ((System.nanoTime() - start) / 1e9), rows / cpuSeconds);
        }
      }
      Thread.sleep(2);
    }
    throw new IllegalStateException(
        name + " did not commit " + rows + " rows in time; status " + cluster.statusOrError(name));
  }

  /**
   * The offsets the connector's group committed, summed over the topic's partitions: the records it
   * has landed, since the filler writes no transaction markers.
   */
  private long committed(String name, Topic topic) throws Exception {
    Map<TopicPartition, OffsetAndMetadata> offsets =
        admin
            .listConsumerGroupOffsets("connect-" + name)
            .partitionsToOffsetAndMetadata()
            .get(10, TimeUnit.SECONDS);
    long sum = 0;
    for (int p = 0; p < topic.partitions(); p++) {
      OffsetAndMetadata offset = offsets.get(new TopicPartition(topic.name(), p));
      sum += offset == null ? 0 : offset.offset();
    }
    return sum;
  }

  private static double readTotal(ObjectName metrics) throws Exception {
    try {
      return ((Number) MBEANS.getAttribute(metrics, "sink-record-read-total")).doubleValue();
    } catch (InstanceNotFoundException e) {
      return 0;
    }
  }

  /** Waits until the task's metrics are gone: the task stopped and left the group. */
  private static void awaitGone(ObjectName metrics) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (MBEANS.isRegistered(metrics) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }

  void close() {
    admin.close();
  }
}
