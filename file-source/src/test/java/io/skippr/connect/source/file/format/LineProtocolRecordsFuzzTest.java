package io.skippr.connect.source.file.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.lineprotocol.LineLimits;
import io.skippr.connect.source.lineprotocol.LineProtocolParser;
import io.skippr.connect.source.lineprotocol.Precision;
import io.skippr.connect.source.lineprotocol.records.MeasurementTopics;
import io.skippr.connect.source.lineprotocol.records.PointConverter;
import io.skippr.connect.testkit.fuzz.Hostile;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Line protocol files as the task reads them: every line of a hostile file is skipped, becomes a
 * record or is rejected with a reason, never an exception, and a second reading of the file (a new
 * task learning the measurements' types again) gives the same verdicts.
 */
class LineProtocolRecordsFuzzTest {

  private static final List<String> VALID =
      List.of(
          "cpu,host=a,region=eu\\ west usage=0.5,cores=8i,up=true,name=\"x \\\"y\\\"\" 1700000000123456789",
          "cpu,host=b usage=1.5 1700000001000000000",
          "mem\\ used,host=a free=3u 1700000002000000000",
          "weird/name v=1",
          "m,t=\"q\" f=-1e-3,g=T,h=FALSE 0",
          "# comment",
          "cpu usage=2i");

  @Property
  void everyLineIsSkippedARecordOrARejectionTheSameWhenReadAgain(
      @ForAll("files") List<byte[]> lines) {
    assertThat(verdicts(lines)).isEqualTo(verdicts(lines));
  }

  /** One file's lines through one task's parser: values or reasons, in order. */
  private static List<Object> verdicts(List<byte[]> lines) {
    LineProtocolRecords parser =
        new LineProtocolRecords(
            new LineProtocolParser(LineLimits.DEFAULT),
            new PointConverter(new MeasurementTopics("metrics.", "", "rejected")),
            Precision.NANOSECONDS,
            () -> 42_000_000L);
    List<Object> out = new ArrayList<>();
    for (byte[] line : lines) {
      Parsed p = parser.parse(Frames.of(line));
      if (p == null) {
        out.add("skipped");
      } else if (p.accepted()) {
        out.add(List.of(p.topic(), String.valueOf(p.key()), p.value(), p.timestamp()));
      } else {
        assertThat(p.rejection()).isNotBlank();
        out.add("rejected: " + p.rejection());
      }
    }
    return out;
  }

  @Provide
  Arbitrary<List<byte[]>> files() {
    Arbitrary<byte[]> valid = Arbitraries.of(VALID).map(Hostile::bytes);
    return Arbitraries.frequencyOf(
            Tuple.of(2, valid), Tuple.of(4, Hostile.mutated(valid)), Tuple.of(2, Hostile.soup(30)))
        .map(Hostile::oneLine)
        .list()
        .ofMaxSize(6);
  }
}
