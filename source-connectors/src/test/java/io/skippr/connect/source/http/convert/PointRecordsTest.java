package io.skippr.connect.source.http.convert;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.http.config.TopicConfig;
import io.skippr.connect.source.http.delivery.WriteTicket;
import io.skippr.connect.source.lineprotocol.LineLimits;
import io.skippr.connect.source.lineprotocol.LineProtocolParser;
import io.skippr.connect.source.lineprotocol.Point;
import io.skippr.connect.source.lineprotocol.Precision;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class PointRecordsTest {

  private static Point point(String line) {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    return (Point)
        new LineProtocolParser(LineLimits.DEFAULT)
            .parseLine(b, 0, b.length, 1, Precision.NANOSECONDS, 0);
  }

  @Test
  void topicNamesAreSanitizedAndNeverTheRejectionTopic() {
    PointRecords records = new PointRecords(new TopicConfig.Values("p.", "", "p._rejections"));
    WriteTicket t = new WriteTicket();
    assertThat(records.convert(point("cpu\\ load/1 v=1"), t, null).record().topic())
        .isEqualTo("p.cpu_load_1");
    assertThat(records.convert(point("%rejections v=1"), t, null).rejection())
        .isEqualTo("measurement '%rejections' does not map to a usable topic name");
    assertThat(records.convert(point("x".repeat(248) + " v=1"), t, null).rejection())
        .startsWith("measurement 'xxx");
  }

  @Test
  void fixedTopicKeepsTheMeasurementInKeyAndHeader() {
    PointRecords records = new PointRecords(new TopicConfig.Values("p.", "all", "p._r"));
    Converted c = records.convert(point("cpu,h=a v=1 5000000"), new WriteTicket(), "db1");
    assertThat(c.record().topic()).isEqualTo("all");
    assertThat(c.record().key()).isEqualTo("cpu,h=a");
    assertThat(c.record().headers().lastWithName("measurement").value()).isEqualTo("cpu");
    assertThat(c.record().headers().lastWithName("database").value()).isEqualTo("db1");
    assertThat(c.record().timestamp()).isEqualTo(5L);
  }

  @Test
  void negativeNanosecondsFloorToTheEarlierMillisecond() {
    PointRecords records = new PointRecords(new TopicConfig.Values("", "", "_r"));
    Converted c = records.convert(point("m v=1 -1"), new WriteTicket(), null);
    assertThat(c.record().timestamp()).isEqualTo(-1L);
  }

  @Test
  void unsignedAboveLongRangeIsRejectedNotWrapped() {
    PointRecords records = new PointRecords(new TopicConfig.Values("", "", "_r"));
    assertThat(
            records.convert(point("m v=9223372036854775808u"), new WriteTicket(), null).rejection())
        .isEqualTo(
            "unsigned value of field 'v' is above 9223372036854775807 and does not fit the int64"
                + " column");
    Struct v =
        (Struct)
            records
                .convert(point("m v=9223372036854775807u"), new WriteTicket(), null)
                .record()
                .value();
    assertThat(v.get("v")).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void schemaGrowsWithOptionalColumnsAndTypesStayFixed() {
    PointRecords records = new PointRecords(new TopicConfig.Values("", "", "_r"));
    Struct first =
        (Struct) records.convert(point("m,t=a f=1i"), new WriteTicket(), null).record().value();
    Struct second =
        (Struct) records.convert(point("m,u=b g=\"s\""), new WriteTicket(), null).record().value();
    assertThat(first.schema().fields()).extracting(f -> f.name()).containsExactly("time", "t", "f");
    assertThat(second.schema().fields())
        .extracting(f -> f.name())
        .containsExactly("time", "t", "f", "u", "g");
    assertThat(second.schema().field("g").schema()).isEqualTo(Schema.OPTIONAL_STRING_SCHEMA);
    assertThat(second.get("t")).isNull();
    assertThat(records.convert(point("m f=1.5"), new WriteTicket(), null).rejection())
        .isEqualTo(
            "'f' is written as a float field but measurement 'm' already has it as an integer field");
    assertThat(records.convert(point("m,f=x g=\"y\""), new WriteTicket(), null).rejection())
        .isEqualTo(
            "'f' is written as a tag but measurement 'm' already has it as an integer field");
    assertThat(records.convert(point("other f=1.5"), new WriteTicket(), null).rejection()).isNull();
  }
}
