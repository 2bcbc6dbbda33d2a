package io.skippr.connect.source.file.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.http.config.TopicConfig;
import io.skippr.connect.source.http.convert.Converted;
import io.skippr.connect.source.http.convert.PointRecords;
import io.skippr.connect.source.http.delivery.WriteTicket;
import io.skippr.connect.source.lineprotocol.LineLimits;
import io.skippr.connect.source.lineprotocol.LineProtocolParser;
import io.skippr.connect.source.lineprotocol.Point;
import io.skippr.connect.source.lineprotocol.Precision;
import io.skippr.connect.source.lineprotocol.records.MeasurementTopics;
import io.skippr.connect.source.lineprotocol.records.PointConverter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/** Lines from a file become the records the HTTP ingest source makes of the same lines. */
class LineProtocolRecordsTest {

  private static final List<String> LINES =
      List.of(
          "cpu,host=a,region=eu\\ west usage=0.5,cores=8i,up=true,name=\"x \\\"y\\\"\" 1700000000123456789",
          "cpu,host=b usage=1.5 1700000001000000000",
          "mem\\ used,host=a free=3u 1700000002000000000",
          "weird/name v=1 1700000003000000000");

  @Test
  void recordsEqualThoseOfTheHttpIngestSource() {
    LineProtocolRecords file = fileRecords(Precision.NANOSECONDS);
    PointRecords http = new PointRecords(new TopicConfig.Values("metrics.", "", "rejected"));
    LineProtocolParser parser = new LineProtocolParser(LineLimits.DEFAULT);
    for (String line : LINES) {
      Parsed p = file.parse(Frames.of(line));
      byte[] b = line.getBytes(StandardCharsets.UTF_8);
      Point point = (Point) parser.parseLine(b, 0, b.length, 1, Precision.NANOSECONDS, 0);
      Converted h = http.convert(point, new WriteTicket(), null);
      assertThat(p.rejection()).as(line).isNull();
      assertThat(p.topic()).isEqualTo(h.record().topic());
      assertThat(p.key()).isEqualTo(h.record().key());
      assertThat(p.valueSchema()).isEqualTo(h.record().valueSchema());
      assertThat(p.value()).isEqualTo(h.record().value());
      // HTTP ingest stamps records with their arrival; a file's records keep the point's time.
      assertThat(p.timestamp())
          .isEqualTo(((java.util.Date) ((Struct) h.record().value()).get("time")).getTime());
      assertThat(p.headers()).isEqualTo(h.record().headers());
    }
    assertThat(file.parse(Frames.of(LINES.get(3))).topic()).isEqualTo("metrics._weird_2fname");
  }

  @Test
  void commentsAndBlankLinesAreSkippedAndBadLinesRejected() {
    LineProtocolRecords file = fileRecords(Precision.NANOSECONDS);
    assertThat(file.parse(Frames.of("# a comment"))).isNull();
    assertThat(file.parse(Frames.of("   "))).isNull();
    assertThat(file.parse(Frames.of("cpu v= 1")).rejection())
        .isEqualTo("missing value for field 'v' at column 7");
    assertThat(file.parse(Frames.of("cpu v=1i 1")).rejection()).isNull();
    assertThat(file.parse(Frames.of("cpu v=1.5 2")).rejection())
        .isEqualTo(
            "'v' is written as a float field but measurement 'cpu' already has it as an integer"
                + " field");
  }

  @Test
  void precisionAndDefaultTimeApply() {
    LineProtocolRecords seconds = fileRecords(Precision.SECONDS);
    assertThat(seconds.parse(Frames.of("m v=1 1700000000")).timestamp())
        .isEqualTo(1_700_000_000_000L);
    Struct noTime = (Struct) seconds.parse(Frames.of("m v=2")).value();
    assertThat(((java.util.Date) noTime.get("time")).getTime()).isEqualTo(42L);
  }

  private static LineProtocolRecords fileRecords(Precision precision) {
    return new LineProtocolRecords(
        new LineProtocolParser(LineLimits.DEFAULT),
        new PointConverter(new MeasurementTopics("metrics.", "", "rejected")),
        precision,
        () -> 42_000_000L);
  }
}
