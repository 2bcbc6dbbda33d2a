package io.skippr.connect.source.file.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.skippr.connect.source.fuzz.ChunkedBytes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The framer's record ends against Jackson's own CSV parser: for random well- and ill-formed input
 * that Jackson parses as a whole, framing first and parsing each record alone gives the same rows.
 */
class CsvBoundaryDifferentialTest {

  private static final CsvFactory CSV = new CsvFactory();
  private static final String[] PIECES = {
    "a", "bc", ",", "\"", "\"\"", "\n", "\r\n", " ", "\u00e9"
  };

  @Test
  void framingThenParsingEachRecordGivesJacksonsRows() throws IOException {
    Random random = new Random(17);
    int compared = 0;
    for (int round = 0; round < 20_000; round++) {
      String text = randomCsv(random);
      List<List<String>> whole = parse(text.getBytes(StandardCharsets.UTF_8));
      if (whole == null) {
        continue; // Jackson rejects it as a whole: nothing to compare with
      }
      List<List<String>> framed = framedRows(text);
      assertThat(framed)
          .as("rows of %s", text.replace("\n", "\\n").replace("\r", "\\r"))
          .isEqualTo(whole);
      compared++;
    }
    assertThat(compared).as("inputs Jackson accepted").isGreaterThan(5_000);
  }

  private static String randomCsv(Random random) {
    StringBuilder sb = new StringBuilder();
    int pieces = 1 + random.nextInt(30);
    for (int i = 0; i < pieces; i++) {
      sb.append(PIECES[random.nextInt(PIECES.length)]);
    }
    return sb.toString();
  }

  private static List<List<String>> framedRows(String text) throws IOException {
    RecordFramer framer =
        new RecordFramer(ChunkedBytes.of(text, false), new CsvBoundary(',', '"'), 10_000, 1);
    List<List<String>> rows = new ArrayList<>();
    Frame f;
    while ((f = framer.next(true)) != null) {
      List<List<String>> one = parse(java.util.Arrays.copyOfRange(f.buf(), f.start(), f.end()));
      if (one == null) {
        rows.add(List.of("<rejected>"));
      } else {
        rows.addAll(one);
      }
    }
    return rows;
  }

  /** Jackson's rows, or null when it fails; empty lines (and lone empty fields) give no row. */
  private static List<List<String>> parse(byte[] bytes) {
    List<List<String>> rows = new ArrayList<>();
    try (CsvParser p = (CsvParser) CSV.createParser(bytes, 0, bytes.length)) {
      p.setSchema(CsvSchema.emptySchema());
      p.enable(CsvParser.Feature.SKIP_EMPTY_LINES);
      JsonToken t;
      List<String> row = null;
      while ((t = p.nextToken()) != null) {
        if (t == JsonToken.START_ARRAY) {
          row = new ArrayList<>();
        } else if (t == JsonToken.END_ARRAY && !row.equals(List.of(""))) {
          rows.add(row); // a lone empty field is an empty line, which the file source skips
        } else {
          row.add(p.getText());
        }
      }
      return rows;
    } catch (IOException e) {
      return null;
    }
  }
}
