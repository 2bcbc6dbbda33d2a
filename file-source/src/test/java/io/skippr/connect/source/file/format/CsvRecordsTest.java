package io.skippr.connect.source.file.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.file.config.FormatConfig;
import io.skippr.connect.source.file.read.Frame;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CsvRecordsTest {

  private static CsvRecords withHeader(String header) {
    CsvRecords csv = new CsvRecords(new FormatConfig.Csv(true, ',', '"', List.of()));
    assertThat(csv.expectsHeader()).isTrue();
    assertThat(csv.header(Frames.of(header))).isNull();
    assertThat(csv.expectsHeader()).isFalse();
    return csv;
  }

  @Test
  void rowsBecomeMapsOfStringsNamedByTheHeader() {
    CsvRecords csv = withHeader("id,name,city");
    assertThat(csv.parse(Frames.of("1,Ann,\"Berlin, DE\"")).value())
        .isEqualTo(Map.of("id", "1", "name", "Ann", "city", "Berlin, DE"));
  }

  @Test
  void quotedFieldsHoldQuotesDelimitersAndNewlines() {
    CsvRecords csv = withHeader("id,note");
    assertThat(csv.parse(Frames.of("2,\"say \"\"hi\"\",\r\nthen, go\"")).value())
        .isEqualTo(Map.of("id", "2", "note", "say \"hi\",\r\nthen, go"));
  }

  @Test
  void anEmptyFieldIsNullAndAQuotedEmptyFieldIsEmpty() {
    CsvRecords csv = withHeader("a,b,c");
    Map<String, Object> expected = new HashMap<>();
    expected.put("a", null);
    expected.put("b", "");
    expected.put("c", "x");
    assertThat(csv.parse(Frames.of(",\"\",x")).value()).isEqualTo(expected);
  }

  @Test
  void rowsWithAnotherFieldCountOrBrokenQuotingAreRejected() {
    CsvRecords csv = withHeader("a,b");
    assertThat(csv.parse(Frames.of("1,2,3")).rejection())
        .isEqualTo("row has 3 fields but there are 2 columns");
    assertThat(csv.parse(Frames.of("1")).rejection())
        .isEqualTo("row has 1 field but there are 2 columns");
    assertThat(csv.parse(Frames.of("\"ab\"cd,e")).rejection()).startsWith("malformed CSV: ");
    assertThat(csv.parse(Frames.of("x,\"open")).rejection()).startsWith("malformed CSV: ");
    byte[] bad = {'1', ',', (byte) 0xFF};
    assertThat(csv.parse(Frames.of(bad)).rejection()).contains("UTF-8");
    assertThat(csv.parse(Frames.of("3,4")).value()).isEqualTo(Map.of("a", "3", "b", "4"));
  }

  @Test
  void aLoneCarriageReturnOutsideQuotesRejectsTheRow() {
    CsvRecords csv = withHeader("a,b");
    assertThat(csv.parse(Frames.of("1,2\r3,4")).rejection())
        .isEqualTo("more than one row in the record");
    assertThat(csv.parse(Frames.of("1,\"2\r3\"")).value()).isEqualTo(Map.of("a", "1", "b", "2\r3"));
  }

  @Test
  void emptyLinesAreSkipped() {
    assertThat(withHeader("a").parse(Frames.of(""))).isNull();
  }

  @Test
  void headerNamesAreMadeUniqueAndEmptyOnesNumbered() {
    CsvRecords csv = withHeader("id,,id,id");
    assertThat(
            new java.util.ArrayList<Object>(
                ((Map<?, ?>) csv.parse(Frames.of("1,2,3,4")).value()).keySet()))
        .containsExactly("id", "column_2", "id_2", "id_3");
  }

  @Test
  void csvColumnsNameFilesWithoutAHeaderInAnyDialect() {
    CsvRecords csv = new CsvRecords(new FormatConfig.Csv(false, ';', '\'', List.of("k", "v")));
    assertThat(csv.expectsHeader()).isFalse();
    assertThat(csv.parse(Frames.of("x;'a;b'")).value()).isEqualTo(Map.of("k", "x", "v", "a;b"));
    CsvRecords tabs = new CsvRecords(new FormatConfig.Csv(false, '\t', '"', List.of("k", "v")));
    assertThat(tabs.parse(Frames.of("x\ty z")).value()).isEqualTo(Map.of("k", "x", "v", "y z"));
  }

  @Test
  void csvColumnsReplaceTheHeadersNames() {
    CsvRecords csv = new CsvRecords(new FormatConfig.Csv(true, ',', '"', List.of("k", "v")));
    assertThat(csv.header(Frames.of("key,value"))).isNull();
    assertThat(csv.parse(Frames.of("1,2")).value()).isEqualTo(Map.of("k", "1", "v", "2"));
  }

  @Test
  void anUnreadableHeaderRejectsEveryRowWithTheReason() {
    CsvRecords csv = new CsvRecords(new FormatConfig.Csv(true, ',', '"', List.of()));
    assertThat(csv.header(Frames.of("a,\"b"))).startsWith("the header row cannot be read");
    assertThat(csv.parse(Frames.of("1,2")).rejection()).startsWith("the header row cannot be read");
  }

  @Test
  void aRowWithNulAmongItsFirstBytesIsReadAsUtf8() {
    // Found by CsvRecordsFuzzTest: Jackson took ",\0,,," and "a\0" for UTF-16 (a NUL among an
    // input's first bytes is how it guesses); the first was read as two garbled fields, the
    // second as "a".
    CsvRecords csv = withHeader("a,b,c,d,e");
    Map<String, Object> expected = new HashMap<>();
    expected.put("a", null);
    expected.put("b", "\0");
    expected.put("c", null);
    expected.put("d", null);
    expected.put("e", null);
    assertThat(csv.parse(Frames.of(",\0,,,")).value()).isEqualTo(expected);
    CsvRecords one = withHeader("a");
    assertThat(one.parse(Frames.of("a\0")).value()).isEqualTo(Map.of("a", "a\0"));
    byte[] utf16 = {(byte) 0xFF, (byte) 0xFE, 'a', 0};
    assertThat(one.parse(Frames.of(utf16)).rejection())
        .isEqualTo("invalid UTF-8 at byte 0 of the record (0xff)");
  }

  @Test
  void invalidUtf8IsRejectedWithItsPlaceInTheRowWhereverTheRowIsBuffered() {
    // Found by CsvRecordsFuzzTest: the reason held Jackson's position in the read buffer, so the
    // same row got another reason when a read had brought it at another place.
    CsvRecords csv = withHeader("a,b");
    byte[] row = {'1', ',', (byte) 0xC3, '(', 'x'};
    byte[] buffered = new byte[7 + row.length];
    System.arraycopy(row, 0, buffered, 7, row.length);
    Frame there = new Frame(Frame.Kind.RECORD, buffered, 7, buffered.length, 0, 6, 1, 1);
    assertThat(csv.parse(Frames.of(row)).rejection())
        .isEqualTo("invalid UTF-8 at byte 2 of the record (0xc3)");
    assertThat(csv.parse(there).rejection())
        .isEqualTo("invalid UTF-8 at byte 2 of the record (0xc3)");
  }

  @Test
  void overlongFormsSurrogatesAndCodePointsBeyondUnicodeAreInvalidUtf8() {
    // Looked for after NdjsonParserFuzzTest found the JSON reader lenient: Jackson's CSV reader
    // accepted C0 80 (an overlong NUL), ED A0 80 (a surrogate) and F4 90 80 80 (beyond U+10FFFF).
    CsvRecords csv = withHeader("a,b");
    byte[][] bad = {
      {'1', ',', (byte) 0xC0, (byte) 0x80},
      {'1', ',', (byte) 0xED, (byte) 0xA0, (byte) 0x80},
      {'1', ',', (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
      {'1', ',', (byte) 0xE0, (byte) 0x80, (byte) 0x80}
    };
    for (byte[] row : bad) {
      assertThat(csv.parse(Frames.of(row)).rejection())
          .startsWith("invalid UTF-8 at byte 2 of the record (0x");
    }
    assertThat(csv.parse(Frames.of("1,\u00e9\uD83D\uDE00\uFFFD")).value())
        .isEqualTo(Map.of("a", "1", "b", "\u00e9\uD83D\uDE00\uFFFD"));
  }
}
