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
  void topicNamesAreMappedOneToOneAndNeverTheRejectionTopic() {
    PointRecords records = new PointRecords(new TopicConfig.Values("p.", "", "p.taken"));
    WriteTicket t = new WriteTicket();
    assertThat(records.convert(point("cpu_load-1 v=1"), t, null).record().topic())
        .isEqualTo("p.cpu_load-1");
    assertThat(records.convert(point("cpu\\ load/1 v=1"), t, null).record().topic())
        .isEqualTo("p._cpu_20load_2f1");
    assertThat(records.convert(point("cp\u0000u v=1"), t, null).record().topic())
        .isEqualTo("p._cp_00u");
    assertThat(records.convert(point("cp_u v=1"), t, null).record().topic()).isEqualTo("p.cp_u");
    assertThat(records.convert(point("taken v=1"), t, null).rejection())
        .isEqualTo(
            "measurement 'taken' does not map to a usable topic name: 'p.taken' is (or collides"
                + " with) the rejection topic");
    assertThat(records.convert(point("x".repeat(248) + " v=1"), t, null).rejection())
        .startsWith("measurement 'xxx")
        .endsWith("is 250 characters long, a topic name has at most 249");
  }

  @Test
  void fixedTopicKeepsTheMeasurementInKeyAndHeader() {
    PointRecords records = new PointRecords(new TopicConfig.Values("p.", "all", "p._r"));
    Converted c = records.convert(point("cpu,h=a v=1 5000000"), new WriteTicket(), "db1");
    assertThat(c.record().topic()).isEqualTo("all");
    assertThat(c.record().key()).isEqualTo("cpu,h=a 5000000");
    assertThat(c.record().headers().lastWithName("measurement").value()).isEqualTo("cpu");
    assertThat(c.record().headers().lastWithName("database").value()).isEqualTo("db1");
  }

  @Test
  void theKafkaTimestampIsTheArrivalAndThePointTimeKeepsItsNanoseconds() {
    PointRecords records = new PointRecords(new TopicConfig.Values("", "", "_r"));
    Converted c = records.convert(point("m v=1 1700000000123456789"), new WriteTicket(), null, 42L);
    assertThat(c.record().timestamp()).isEqualTo(42L);
    Struct v = (Struct) c.record().value();
    assertThat(v.get("time")).isEqualTo(new java.util.Date(1_700_000_000_123L));
    assertThat(v.get("time_ns")).isEqualTo(1_700_000_000_123_456_789L);
    assertThat(c.record().key()).isEqualTo("m 1700000000123456789");
    Converted next = records.convert(point("m v=2 1700000000123456790"), new WriteTicket(), null);
    assertThat(next.record().key()).isNotEqualTo(c.record().key());
  }

  @Test
  void negativeNanosecondsFloorToTheEarlierMillisecond() {
    PointRecords records = new PointRecords(new TopicConfig.Values("", "", "_r"));
    Converted c = records.convert(point("m v=1 -1"), new WriteTicket(), null);
    Struct v = (Struct) c.record().value();
    assertThat(v.get("time")).isEqualTo(new java.util.Date(-1L));
    assertThat(v.get("time_ns")).isEqualTo(-1L);
  }

  @Test
  void timeNsIsReservedForThePointsTime() {
    PointRecords records = new PointRecords(new TopicConfig.Values("", "", "_r"));
    assertThat(records.convert(point("m time_ns=1i"), new WriteTicket(), null).rejection())
        .isEqualTo(
            "'time_ns' cannot be a field key: the column holds the point's time in nanoseconds");
    assertThat(records.convert(point("m,time_ns=a v=1"), new WriteTicket(), null).rejection())
        .isEqualTo(
            "'time_ns' cannot be a tag key: the column holds the point's time in nanoseconds");
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
    assertThat(first.schema().fields())
        .extracting(f -> f.name())
        .containsExactly("time", "time_ns", "t", "f");
    assertThat(second.schema().fields())
        .extracting(f -> f.name())
        .containsExactly("time", "time_ns", "t", "f", "u", "g");
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
