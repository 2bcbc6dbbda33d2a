package io.skippr.connect.source.file;

import io.skippr.connect.json.StreamingJsonConverter;
import io.skippr.connect.source.common.encoding.EncodingConfig;
import io.skippr.connect.source.common.encoding.ValueEncoder;
import io.skippr.connect.source.file.config.FormatConfig;
import io.skippr.connect.source.file.format.CsvRecords;
import io.skippr.connect.source.file.format.LineProtocolRecords;
import io.skippr.connect.source.file.format.NdjsonParser;
import io.skippr.connect.source.file.format.Parsed;
import io.skippr.connect.source.file.format.RecordParser;
import io.skippr.connect.source.file.read.Frame;
import io.skippr.connect.source.file.records.FileRecords;
import io.skippr.connect.source.lineprotocol.LineLimits;
import io.skippr.connect.source.lineprotocol.LineProtocolParser;
import io.skippr.connect.source.lineprotocol.Precision;
import io.skippr.connect.source.lineprotocol.records.ColumnStore;
import io.skippr.connect.source.lineprotocol.records.MeasurementTopics;
import io.skippr.connect.source.lineprotocol.records.PointConverter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.storage.Converter;

/**
 * CPU time per row on a task's thread, from the line to the bytes Kafka receives: parse, value
 * ({@link FileRecords}) and converter, for Kafka's JsonConverter and StreamingJsonConverter on the
 * maps and Structs of {@code record.encoding=connect}, and for {@code record.encoding=json};
 * NDJSON, CSV and line protocol, with and without the schema envelope. One thread, no Kafka; a
 * warm-up round, then 5 rounds with every variant in turn; medians. Prints figures only: {@code mvn
 * -q -pl file-source exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=io.skippr.connect.source.file.EncodingBench} after building the module.
 */
public final class EncodingBench {
  static final Map<String, Object> P = Map.of("file", "f");
  static final Map<String, Object> O = Map.of("pos", 1L);
  private static long sink;
  private static byte[] csvHeader;

  private EncodingBench() {}

  public static void main(String[] a) throws IOException {
    Path dir = Files.createTempDirectory("encoding-bench");
    Path ndjsonFile = dir.resolve("events.ndjson");
    Path csvFile = dir.resolve("events.csv");
    FileSourceBench.writeNdjson(ndjsonFile);
    FileSourceBench.writeCsv(csvFile);
    List<byte[]> nd = lines(ndjsonFile);
    List<byte[]> csv = lines(csvFile);
    csvHeader = csv.remove(0);
    List<byte[]> lp = new ArrayList<>();
    for (int i = 0; i < nd.size(); i++) {
      lp.add(
          ("cpu,host=h"
                  + (i % 50)
                  + ",region=eu usage_user="
                  + (i % 1000) / 10.0
                  + ",usage_system=1.5,usage_idle=97.25,procs="
                  + (i % 300)
                  + "i,up=true "
                  + (1700000000000000000L + i * 1000L))
              .getBytes(StandardCharsets.UTF_8));
    }
    Map<String, List<Double>> rates = new LinkedHashMap<>();
    for (int round = 0; round < 6; round++) {
      for (String fmt : List.of("ndjson", "csv", "lineprotocol")) {
        List<byte[]> lines = fmt.equals("ndjson") ? nd : fmt.equals("csv") ? csv : lp;
        for (String v : List.of("kafka", "streaming", "json")) {
          for (boolean schemas : new boolean[] {false, true}) {
            double r = run(fmt, v, schemas, lines);
            if (round > 0)
              rates
                  .computeIfAbsent(fmt + " " + v + " schemas=" + schemas, k -> new ArrayList<>())
                  .add(r);
          }
        }
      }
    }
    rates.forEach(
        (k, l) -> {
          Collections.sort(l);
          System.out.printf("%-40s median %,.0f rows per CPU-second%n", k, l.get(l.size() / 2));
        });
    System.out.println("(" + sink + " bytes written)");
  }

  static double run(String fmt, String v, boolean schemas, List<byte[]> lines) {
    boolean json = v.equals("json");
    RecordParser parser = parser(fmt, json);
    Converter conv = null;
    if (!json) {
      conv = v.equals("kafka") ? new JsonConverter() : new StreamingJsonConverter();
      conv.configure(Map.of("schemas.enable", Boolean.toString(schemas)), false);
    }
    FileRecords records =
        json
            ? new FileRecords(
                "t",
                ValueEncoder.of(new EncodingConfig.Values(EncodingConfig.Encoding.JSON, schemas)))
            : new FileRecords("t");
    if (fmt.equals("csv")) parser.header(frame(csvHeader, 1));
    var bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long t0 = bean.getCurrentThreadCpuTime();
    long line = 2;
    for (byte[] b : lines) {
      Parsed p = parser.parse(frame(b, line++));
      SourceRecord r = records.record(P, O, p, 7L);
      byte[] out =
          json ? (byte[]) r.value() : conv.fromConnectData(r.topic(), r.valueSchema(), r.value());
      sink += out.length;
    }
    return lines.size() / ((bean.getCurrentThreadCpuTime() - t0) / 1e9);
  }

  private static List<byte[]> lines(Path file) throws IOException {
    List<byte[]> lines = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      lines.add(line.getBytes(StandardCharsets.UTF_8));
    }
    return lines;
  }

  static Frame frame(byte[] b, long line) {
    return new Frame(Frame.Kind.RECORD, b, 0, b.length, 0, b.length + 1, line, 1);
  }

  static RecordParser parser(String fmt, boolean json) {
    return switch (fmt) {
      case "ndjson" -> new NdjsonParser(json);
      case "csv" -> new CsvRecords(new FormatConfig.Csv(true, ',', '"', List.of()), json);
      default ->
          new LineProtocolRecords(
              new LineProtocolParser(LineLimits.DEFAULT),
              new PointConverter(
                  new MeasurementTopics("m.", "", "rej"),
                  ColumnStore.NONE,
                  json ? PointConverter.ValueForm.JSON : PointConverter.ValueForm.STRUCT),
              Precision.NANOSECONDS,
              () -> 1L);
    };
  }
}
