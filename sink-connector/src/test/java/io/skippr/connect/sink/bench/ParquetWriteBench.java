package io.skippr.connect.sink.bench;

import io.skippr.connect.lake.bench.BenchRows;
import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.convert.FormatConfig.Codec;
import io.skippr.connect.lake.format.ParquetFileWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetWriter;

/**
 * Writes the same rows ({@link BenchRows}) with parquet-java's example writer (the ceiling: its own
 * simple record model, no conversion; {@link CeilingWriter}) and with {@link ParquetFileWriter}, in
 * one JVM, alternating, after warm-up; prints rows/s of each and their ratio. Files go to a
 * counting sink, so disk speed is not measured. The example writer's groups are built before the
 * clock starts (their strings already UTF-8); ParquetFileWriter encodes strings while it writes.
 *
 * <pre>
 * mvn -o -q -pl sink-connector -am test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test \
 *     -Dspotless.check.skip -Dcheckstyle.skip
 * java -Xmx6g -cp sink-connector/target/test-classes:sink-connector/target/classes:$(cat \
 *     sink-connector/target/test.classpath) io.skippr.connect.sink.bench.ParquetWriteBench \
 *     [rows=1000000] [rounds=5] [codec=snappy] [payload=flat|nested]
 * </pre>
 *
 * (The reactor modules are not installed, so {@code exec:java} on this module alone cannot resolve
 * them; the classpath file gives the same test classpath.)
 */
public final class ParquetWriteBench {
  private ParquetWriteBench() {}

  public static void main(String[] args) throws IOException {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    Codec codec = args.length > 2 ? Codec.valueOf(args[2].toUpperCase(Locale.ROOT)) : Codec.SNAPPY;
    BenchRows.Payload payload =
        args.length > 3 ? BenchRows.Payload.of(args[3]) : BenchRows.Payload.FLAT;
    FormatConfig config =
        new FormatConfig(
            codec,
            FormatConfig.DEFAULT_ROW_GROUP_BYTES,
            false,
            false,
            FormatConfig.NullValues.IGNORE,
            "${topic}");
    Schema schema = payload == BenchRows.Payload.FLAT ? BenchRows.ROW : BenchRows.EVENT;
    CeilingWriter ceiling = new CeilingWriter(schema, codec);
    List<Struct> structs = new java.util.ArrayList<>(rows);
    for (int i = 0; i < rows; i++) {
      structs.add(payload.row(i, 1));
    }
    List<Group> groups = ceiling.groups(structs);
    System.out.printf(
        "%,d %s rows, codec %s, %d rounds after 2 warm-up rounds%n",
        rows, payload.label(), codec.configName(), rounds);

    long[] written = new long[1];
    Measure raw = new Measure("example writer (ceiling)", rows, rounds);
    Measure ours = new Measure("ParquetFileWriter", rows, rounds);
    for (int round = -2; round < rounds; round++) {
      raw.run(round, () -> writeExample(ceiling, groups));
      ours.run(round, () -> written[0] = write(config, schema, structs));
      System.out.printf(
          "%s round %d: %s; %s%n",
          round < 0 ? "warm-up" : "measured", round, raw.last(), ours.last());
    }
    System.out.println("median " + raw.summary());
    System.out.println("median " + ours.summary());
    System.out.printf("ParquetFileWriter file: %,d bytes%n", written[0]);
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

  private static void writeExample(CeilingWriter ceiling, List<Group> groups) throws IOException {
    try (ParquetWriter<Group> writer = ceiling.open(sink())) {
      for (int i = 0, n = groups.size(); i < n; i++) {
        writer.write(groups.get(i));
      }
    }
  }

  /** Writes the rows as one file to a counting sink; returns the file's size. */
  private static long write(FormatConfig config, Schema schema, List<Struct> rows)
      throws IOException {
    long[] size = new long[1];
    OutputStream counting =
        new OutputStream() {
          @Override
          public void write(int b) {
            size[0]++;
          }

          @Override
          public void write(byte[] b, int off, int len) {
            size[0] += len;
          }
        };
    new ParquetFileWriter(config).write(schema, rows, counting);
    return size[0];
  }

  private static OutputStream sink() {
    return OutputStream.nullOutputStream();
  }
}
