package io.skippr.connect.source.file.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.file.config.FormatConfig;
import io.skippr.connect.source.file.read.CsvBoundary;
import io.skippr.connect.source.file.read.Frame;
import io.skippr.connect.source.file.read.RecordFramer;
import io.skippr.connect.source.fuzz.ChunkedBytes;
import io.skippr.connect.testkit.fuzz.Hostile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * CSV files through the framer and the parser as the task reads them. A table written by RFC 4180
 * rules in any dialect (fields holding delimiters, quotes, CR, LF, NUL, non-ASCII; LF or CRLF line
 * ends) comes back field for field; hostile content gives rows or rejections with reasons, never an
 * exception, and the same verdicts however its bytes arrive.
 */
class CsvRecordsFuzzTest {

  private static final int MAX_BYTES = 1 << 20;

  /** A table and how it was written. */
  record Table(
      char delimiter, char quote, List<String> header, List<List<String>> rows, byte[] text) {
    @Override
    public String toString() {
      return new String(text, java.nio.charset.StandardCharsets.UTF_8)
          .replace("\r", "\\r")
          .replace("\n", "\\n\n")
          .replace("\t", "\\t")
          .replace("\u0000", "\\0");
    }
  }

  @Property
  void aWrittenTableIsReadBackFieldForField(@ForAll("tables") Table table, @ForAll long chunking)
      throws IOException {
    List<Object> read = verdicts(table.text(), table.delimiter(), table.quote(), chunking);
    List<Object> expected = new ArrayList<>();
    for (List<String> row : table.rows()) {
      if (row.size() == 1 && row.get(0) == null) {
        continue; // written as an empty line, which holds no row
      }
      Map<String, Object> map = new LinkedHashMap<>();
      for (int i = 0; i < row.size(); i++) {
        map.put(table.header().get(i), row.get(i));
      }
      expected.add(map);
    }
    assertThat(read).isEqualTo(expected);
  }

  @Property
  void hostileContentGivesRowsOrReasonsTheSameHoweverItArrives(
      @ForAll("contents") byte[] content, @ForAll long chunking) throws IOException {
    List<Object> whole = verdicts(content, ',', '"', 0);
    List<Object> chunked = verdicts(content, ',', '"', chunking);
    assertThat(chunked).isEqualTo(whole);
  }

  /** The value of each row, or "rejected: reason", in order; the first record is the header. */
  private static List<Object> verdicts(byte[] content, char delimiter, char quote, long chunking)
      throws IOException {
    CsvRecords parser = new CsvRecords(new FormatConfig.Csv(true, delimiter, quote, List.of()));
    RecordFramer framer =
        new RecordFramer(
            new ChunkedBytes(content, chunking), new CsvBoundary(delimiter, quote), MAX_BYTES, 1);
    List<Object> out = new ArrayList<>();
    Frame f;
    while ((f = framer.next(true)) != null) {
      if (parser.expectsHeader()) {
        String problem = parser.header(f);
        if (problem != null) {
          out.add("header: " + problem);
        }
        continue;
      }
      Parsed p = parser.parse(f);
      if (p != null) {
        assertThat(p.accepted() || !p.rejection().isBlank()).isTrue();
        out.add(p.accepted() ? p.value() : "rejected: " + p.rejection());
      }
    }
    return out;
  }

  @Provide
  Arbitrary<Table> tables() {
    Arbitrary<Character> delimiters = Arbitraries.of(',', ';', '\t', '|');
    Arbitrary<Character> quotes = Arbitraries.of('"', '\'');
    return Combinators.combine(delimiters, quotes, Arbitraries.integers().between(1, 5))
        .flatAs(
            (d, q, columns) ->
                Combinators.combine(names(columns), rows(columns, d, q), Arbitraries.longs())
                    .as((header, rows, seed) -> write(d, q, header, rows, seed)));
  }

  @Provide
  Arbitrary<byte[]> contents() {
    Arbitrary<byte[]> table = tables().map(Table::text);
    return Arbitraries.frequencyOf(
        Tuple.of(3, Hostile.soup(50)), Tuple.of(3, Hostile.mutated(table)), Tuple.of(1, table));
  }

  private static Arbitrary<List<String>> names(int columns) {
    return Arbitraries.strings()
        .alpha()
        .ofMinLength(1)
        .ofMaxLength(6)
        .list()
        .ofSize(columns)
        .uniqueElements();
  }

  private static Arbitrary<List<List<String>>> rows(int columns, char delimiter, char quote) {
    Arbitrary<String> field =
        Arbitraries.oneOf(
            Arbitraries.just(null),
            Arbitraries.of(
                    "a",
                    "b",
                    " ",
                    "\u00e9",
                    "\uD83D\uDE00",
                    "\u0000",
                    "\r",
                    "\n",
                    "" + delimiter,
                    "" + quote)
                .list()
                .ofMaxSize(8)
                .map(parts -> String.join("", parts)),
            Arbitraries.strings().alpha().numeric().ofMaxLength(8));
    return field.list().ofSize(columns).list().ofMaxSize(6);
  }

  /**
   * RFC 4180 as a writer would: a field is quoted when it must be (it holds the delimiter, the
   * quote, CR or LF, or is the empty string) and sometimes when it need not be; null is an empty
   * unquoted field.
   */
  private static Table write(
      char delimiter, char quote, List<String> header, List<List<String>> rows, long seed) {
    java.util.Random random = new java.util.Random(seed);
    StringBuilder text = new StringBuilder();
    List<List<String>> all = new ArrayList<>();
    all.add(header);
    all.addAll(rows);
    for (List<String> row : all) {
      for (int i = 0; i < row.size(); i++) {
        if (i > 0) {
          text.append(delimiter);
        }
        String f = row.get(i);
        if (f == null) {
          continue;
        }
        boolean must =
            f.isEmpty()
                || f.indexOf(delimiter) >= 0
                || f.indexOf(quote) >= 0
                || f.indexOf('\r') >= 0
                || f.indexOf('\n') >= 0;
        if (must || random.nextInt(4) == 0) {
          String q = String.valueOf(quote);
          text.append(q).append(f.replace(q, q + q)).append(q);
        } else {
          text.append(f);
        }
      }
      text.append(random.nextBoolean() ? "\r\n" : "\n");
    }
    return new Table(delimiter, quote, header, rows, Hostile.bytes(text.toString()));
  }
}
