package io.skippr.connect.source.file.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.common.encoding.EncodingConfig;
import io.skippr.connect.source.common.encoding.ValueEncoder;
import io.skippr.connect.source.file.config.FormatConfig;
import io.skippr.connect.source.file.read.CsvBoundary;
import io.skippr.connect.source.file.read.Frame;
import io.skippr.connect.source.file.read.RecordFramer;
import io.skippr.connect.source.file.read.RecordFramerFuzzTest;
import io.skippr.connect.source.file.records.FileRecords;
import io.skippr.connect.source.fuzz.ChunkedBytes;
import io.skippr.connect.source.lineprotocol.LineLimits;
import io.skippr.connect.source.lineprotocol.LineProtocolParser;
import io.skippr.connect.source.lineprotocol.Precision;
import io.skippr.connect.source.lineprotocol.records.ColumnStore;
import io.skippr.connect.source.lineprotocol.records.MeasurementTopics;
import io.skippr.connect.source.lineprotocol.records.PointConverter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * {@code record.encoding=json} against the path it replaces, on generated and hostile input of
 * every format (fuzz.tries cases per property): the value written straight from the line must be
 * the bytes Kafka's JsonConverter writes for the map or Struct the line becomes otherwise, with
 * schemas and without. A line the old path takes but Kafka's converter cannot write (the worker
 * would fail on it) is rejected instead; every other line gets the same verdict, topic, key,
 * timestamp and headers.
 */
class EncodingDifferentialFuzzTest {

  private static final String TOPIC = "events";
  private static final Map<String, Object> PARTITION = Map.of("file", "f");
  private static final Map<String, Object> OFFSET = Map.of("pos", 1L);
  private static final FormatConfig.Csv CSV = new FormatConfig.Csv(true, ',', '"', List.of());

  private final Sides sides = new Sides();

  @Property
  void ndjsonPayloadsAreTheBytesOfTheirMaps(@ForAll("ndjson") byte[] line) {
    sides.compare(new NdjsonParser(false), new NdjsonParser(true), List.of(Frames.of(line)));
  }

  /** Lines that take the less travelled ways: repeated names, escapes, numbers at the edges. */
  @Example
  void ndjsonEdges() {
    List<String> lines =
        List.of(
            "{\"a\":1,\"b\":{\"c\":2,\"c\":[3]},\"a\":null}",
            "{\"a\":\"\\ud800\"}",
            "{\"a\":\"\\ud83d\\ude80 \\u00e9 \\/ \\n \\u0001 \u20ac\"}",
            "{\"n\":[-0.0,1E-7,1.0e21,123456789012345678,-9223372036854775808,0.1,5e-324]}",
            "{\"big\":1e400}",
            "{\"big\":9223372036854775808}",
            "{\"\":{\"\":[]},\"k\":[{},[],[[{\"x\":false}]]]}",
            "{\"a\":" + "[".repeat(998) + "]".repeat(998) + "}",
            "{\"a\":" + "[".repeat(999) + "]".repeat(999) + "}");
    for (String line : lines) {
      sides.compare(new NdjsonParser(false), new NdjsonParser(true), List.of(Frames.of(line)));
    }
  }

  @Property
  void csvPayloadsAreTheBytesOfTheirMaps(@ForAll("csv") byte[] content) throws IOException {
    sides.compare(new CsvRecords(CSV, false), new CsvRecords(CSV, true), csvFrames(content));
  }

  @Property
  void pointPayloadsAreTheBytesOfTheirStructs(@ForAll("lineProtocol") List<byte[]> lines) {
    List<Frame> frames = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      byte[] line = lines.get(i);
      frames.add(new Frame(Frame.Kind.RECORD, line, 0, line.length, 0, line.length + 1, i + 1, 1));
    }
    sides.compare(
        points(PointConverter.ValueForm.STRUCT), points(PointConverter.ValueForm.JSON), frames);
  }

  @Provide
  Arbitrary<byte[]> ndjson() {
    return new NdjsonParserFuzzTest().lines();
  }

  @Provide
  Arbitrary<byte[]> csv() {
    return new CsvRecordsFuzzTest().contents();
  }

  @Provide
  Arbitrary<List<byte[]>> lineProtocol() {
    return new LineProtocolRecordsFuzzTest().files();
  }

  private static LineProtocolRecords points(PointConverter.ValueForm form) {
    return new LineProtocolRecords(
        new LineProtocolParser(LineLimits.DEFAULT),
        new PointConverter(
            new MeasurementTopics("metrics.", "", "rejected"), ColumnStore.NONE, form),
        Precision.NANOSECONDS,
        () -> 42_000_000L);
  }

  /** The records of a CSV file as the framer cuts it, the header first. */
  private static List<Frame> csvFrames(byte[] content) throws IOException {
    return RecordFramerFuzzTest.frames(
        new RecordFramer(new ChunkedBytes(content, 0), new CsvBoundary(',', '"'), 1 << 20, 1));
  }

  /** The old path (values, Kafka's converter) and the new one (payloads, the encoder). */
  private static final class Sides {
    private final JsonConverter[] kafka = {converter(true), converter(false)};
    private final FileRecords values = new FileRecords(TOPIC);
    private final FileRecords[] payloads = {records(true), records(false)};

    void compare(RecordParser old, RecordParser lean, List<Frame> frames) {
      for (Frame frame : frames) {
        if (old.expectsHeader()) {
          assertThat(lean.expectsHeader()).isTrue();
          assertThat(lean.header(frame)).isEqualTo(old.header(frame));
          continue;
        }
        compare(old.parse(frame), lean.parse(frame));
      }
    }

    private void compare(Parsed old, Parsed lean) {
      if (old == null || !old.accepted()) {
        assertThat(lean).isEqualTo(old);
        return;
      }
      SourceRecord record = values.record(PARTITION, OFFSET, old, 7L);
      for (int s = 0; s < 2; s++) {
        byte[] expected = kafkaBytes(kafka[s], record);
        if (expected == null) {
          // Kafka's converter cannot write this value: the lean path refuses the line instead
          assertThat(lean.accepted() ? encodeFails(payloads[s], lean) : lean.rejection())
              .as("a value Kafka cannot write")
              .startsWith("value cannot be written as JSON");
          continue;
        }
        assertThat(lean.rejection()).as("rejected what Kafka writes").isNull();
        SourceRecord written = payloads[s].record(PARTITION, OFFSET, lean, 7L);
        assertThat(written.valueSchema()).isEqualTo(Schema.OPTIONAL_BYTES_SCHEMA);
        assertThat((byte[]) written.value())
            .as(
                "schemas %s: %s",
                s == 0, new String(expected, java.nio.charset.StandardCharsets.UTF_8))
            .isEqualTo(expected);
        assertThat(written.topic()).isEqualTo(record.topic());
        assertThat(written.key()).isEqualTo(record.key());
        assertThat(written.keySchema()).isEqualTo(record.keySchema());
        assertThat(written.timestamp()).isEqualTo(record.timestamp());
        assertThat(written.headers()).isEqualTo(record.headers());
      }
    }

    private static String encodeFails(FileRecords records, Parsed lean) {
      try {
        records.record(PARTITION, OFFSET, lean, 7L);
        return "written";
      } catch (DataException e) {
        return "value cannot be written as JSON: " + e.getMessage();
      }
    }

    private static byte[] kafkaBytes(JsonConverter converter, SourceRecord record) {
      try {
        return converter.fromConnectData(record.topic(), record.valueSchema(), record.value());
      } catch (DataException e) {
        return null;
      }
    }

    private static JsonConverter converter(boolean schemas) {
      JsonConverter converter = new JsonConverter();
      converter.configure(
          Map.of("schemas.enable", Boolean.toString(schemas), "converter.type", "value"));
      return converter;
    }

    private static FileRecords records(boolean schemas) {
      return new FileRecords(
          TOPIC, ValueEncoder.of(new EncodingConfig.Values(EncodingConfig.Encoding.JSON, schemas)));
    }
  }
}
