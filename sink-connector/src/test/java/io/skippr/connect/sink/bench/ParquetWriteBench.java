package io.skippr.connect.sink.bench;

import io.skippr.connect.sink.convert.FormatConfig;
import io.skippr.connect.sink.convert.FormatConfig.Codec;
import io.skippr.connect.sink.convert.ParquetSchemas;
import io.skippr.connect.sink.format.ParquetCodecs;
import io.skippr.connect.sink.format.ParquetFileWriter;
import io.skippr.connect.sink.format.StreamOutputFile;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;

/**
 * Writes the same rows (~200 bytes each, mixed types) with parquet-java's example writer (the
 * ceiling: its own simple record model, no conversion) and with {@link ParquetFileWriter}, in one
 * JVM, alternating, after warm-up; prints rows/s of each and their ratio. Files go to a counting
 * sink, so disk speed is not measured. The example writer's groups are built before the clock
 * starts (their strings already UTF-8); ParquetFileWriter encodes strings while it writes.
 *
 * <pre>
 * mvn -o -q -pl sink-connector -am test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test \
 *     -Dspotless.check.skip -Dcheckstyle.skip
 * java -Xmx6g -cp sink-connector/target/test-classes:sink-connector/target/classes:$(cat \
 *     sink-connector/target/test.classpath) io.skippr.connect.sink.bench.ParquetWriteBench \
 *     [rows=1000000] [rounds=5] [codec=snappy]
 * </pre>
 *
 * (The reactor modules are not installed, so {@code exec:java} on this module alone cannot resolve
 * them; the classpath file gives the same test classpath.)
 */
public final class ParquetWriteBench {
  public static final Schema ROW =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("customer", Schema.STRING_SCHEMA)
          .field("category", Schema.OPTIONAL_STRING_SCHEMA)
          .field("amount", Schema.FLOAT64_SCHEMA)
          .field("qty", Schema.INT32_SCHEMA)
          .field("active", Schema.BOOLEAN_SCHEMA)
          .field("ts", Timestamp.SCHEMA)
          .field("note", Schema.OPTIONAL_STRING_SCHEMA)
          .build();
  private static final String[] CATEGORIES = {"books", "games", "garden", "music", "tools"};

  private ParquetWriteBench() {}

  public static void main(String[] args) throws IOException {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    Codec codec = args.length > 2 ? Codec.valueOf(args[2].toUpperCase(Locale.ROOT)) : Codec.SNAPPY;
    FormatConfig config =
        new FormatConfig(
            codec,
            FormatConfig.DEFAULT_ROW_GROUP_BYTES,
            false,
            false,
            FormatConfig.NullValues.IGNORE,
            "${topic}");
    MessageType type = ParquetSchemas.toMessageType(ROW);
    List<Struct> structs = structs(rows);
    List<Group> groups = groups(type, structs);
    System.out.printf(
        "%,d rows of ~%d bytes, codec %s, %d rounds after 2 warm-up rounds%n",
        rows, approximateRowBytes(structs.get(rows / 2)), codec.configName(), rounds);

    Measure raw = new Measure("example writer (ceiling)", rows, rounds);
    Measure ours = new Measure("ParquetFileWriter", rows, rounds);
    for (int round = -2; round < rounds; round++) {
      raw.run(round, () -> writeExample(type, groups, codec));
      ours.run(round, () -> new ParquetFileWriter(config).write(ROW, structs, sink()));
      System.out.printf(
          "%s round %d: %s; %s%n",
          round < 0 ? "warm-up" : "measured", round, raw.last(), ours.last());
    }
    System.out.println("median " + raw.summary());
    System.out.println("median " + ours.summary());
    System.out.printf(
        "ratio ParquetFileWriter / example writer: wall %.2f, cpu %.2f%n",
        ours.median(ours.wall) / raw.median(raw.wall), ours.median(ours.cpu) / raw.median(raw.cpu));
  }

  public interface Write {
    void run() throws IOException;
  }

  /**
   * Wall-clock and thread-CPU rows/s plus bytes allocated per row. CPU time and allocation are
   * steadier than wall time on a shared machine.
   */
  public static final class Measure {
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    private final String name;
    private final int rows;
    final double[] wall;
    final double[] cpu;
    final double[] allocated;
    private double lastWall;
    private double lastCpu;
    private double lastAllocated;

    public Measure(String name, int rows, int rounds) {
      this.name = name;
      this.rows = rows;
      this.wall = new double[rounds];
      this.cpu = new double[rounds];
      this.allocated = new double[rounds];
    }

    public void run(int round, Write write) throws IOException {
      long thread = Thread.currentThread().getId();
      long bytes = THREADS.getThreadAllocatedBytes(thread);
      long cpuStart = THREADS.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      write.run();
      lastWall = rows / ((System.nanoTime() - start) / 1e9);
      lastCpu = rows / ((THREADS.getCurrentThreadCpuTime() - cpuStart) / 1e9);
      lastAllocated = (THREADS.getThreadAllocatedBytes(thread) - bytes) / (double) rows;
      if (round >= 0) {
        wall[round] = lastWall;
        cpu[round] = lastCpu;
        allocated[round] = lastAllocated;
      }
    }

    public String last() {
      return String.format(
          "%s %,.0f rows/s wall, %,.0f rows/s cpu, %.0f B/row allocated",
          name, lastWall, lastCpu, lastAllocated);
    }

    public String summary() {
      return String.format(
          "%s: %,.0f rows/s wall, %,.0f rows/s cpu, %.0f B/row allocated",
          name, median(wall), median(cpu), median(allocated));
    }

    double median(double[] values) {
      double[] sorted = values.clone();
      Arrays.sort(sorted);
      return sorted[sorted.length / 2];
    }
  }

  public static List<Struct> structs(int rows) {
    List<Struct> structs = new ArrayList<>(rows);
    for (int i = 0; i < rows; i++) {
      long id = 1_000_000_000L + i;
      structs.add(
          new Struct(ROW)
              .put("id", id)
              .put("customer", "customer-" + (id * 7919 % 100_003) + "@example.org")
              .put("category", i % 10 == 0 ? null : CATEGORIES[i % CATEGORIES.length])
              .put("amount", (id % 100_000) / 100.0)
              .put("qty", i % 17)
              .put("active", i % 3 != 0)
              .put("ts", new java.util.Date(1_767_225_600_000L + i * 10L))
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
                      + ", handled by team "
                      + (i % 11)
                      + " at dock "
                      + (i % 7)));
    }
    return structs;
  }

  private static List<Group> groups(MessageType type, List<Struct> structs) {
    SimpleGroupFactory factory = new SimpleGroupFactory(type);
    List<Group> groups = new ArrayList<>(structs.size());
    for (Struct s : structs) {
      Group g =
          factory
              .newGroup()
              .append("id", s.getInt64("id"))
              .append("customer", s.getString("customer"))
              .append("amount", s.getFloat64("amount"))
              .append("qty", s.getInt32("qty"))
              .append("active", s.getBoolean("active"))
              .append("ts", ((java.util.Date) s.get("ts")).getTime())
              .append("note", s.getString("note"));
      if (s.getString("category") != null) {
        g.append("category", s.getString("category"));
      }
      groups.add(g);
    }
    return groups;
  }

  private static void writeExample(MessageType type, List<Group> groups, Codec codec)
      throws IOException {
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new StreamOutputFile(sink()))
            .withType(type)
            .withConf(new PlainParquetConfiguration())
            .withCodecFactory(new ParquetCodecs())
            .withCompressionCodec(ParquetFileWriter.codecName(codec))
            .withRowGroupSize(FormatConfig.DEFAULT_ROW_GROUP_BYTES)
            .withDictionaryEncoding(true)
            .build()) {
      for (int i = 0, n = groups.size(); i < n; i++) {
        writer.write(groups.get(i));
      }
    }
  }

  private static int approximateRowBytes(Struct s) {
    return 8 + s.getString("customer").length() + 6 + 8 + 4 + 1 + 8 + s.getString("note").length();
  }

  private static OutputStream sink() {
    return OutputStream.nullOutputStream();
  }
}
