package io.skippr.connect.source.file.format;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.skippr.connect.json.ByteSink;
import io.skippr.connect.json.JsonPayload;
import io.skippr.connect.source.file.config.FormatConfig;
import io.skippr.connect.source.file.read.Frame;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.CharBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * RFC 4180 rows parsed by Jackson's CSV module, one framed record at a time (the framer has already
 * found where each record ends, quoted newlines included). A row becomes a map of strings named by
 * the file's header or {@code csv.columns}; an empty unquoted field is null, a quoted empty field
 * the empty string. A row with another number of fields than there are columns, broken quoting or
 * invalid UTF-8 is rejected. Empty lines are skipped. For {@code record.encoding=json} a row is
 * written straight as the JSON payload of that map.
 */
public final class CsvRecords implements RecordParser {

  private static final CsvFactory CSV = new CsvFactory();

  private final CsvSchema schema;
  private final boolean payloads;
  private final List<String> configuredColumns;
  private boolean expectsHeader;
  private String[] columns;
  private String headerProblem;

  /** Rows as maps. */
  public CsvRecords(FormatConfig.Csv csv) {
    this(csv, false);
  }

  /**
   * @param payloads rows as their JSON payload rather than maps
   */
  public CsvRecords(FormatConfig.Csv csv, boolean payloads) {
    this.payloads = payloads;
    this.schema =
        CsvSchema.emptySchema()
            .withColumnSeparator(csv.delimiter())
            .withQuoteChar(csv.quote())
            .withoutEscapeChar();
    this.configuredColumns = csv.columns();
    this.expectsHeader = csv.header();
    this.columns = csv.header() ? null : csv.columns().toArray(new String[0]);
  }

  @Override
  public boolean expectsHeader() {
    return expectsHeader;
  }

  @Override
  public String header(Frame frame) {
    expectsHeader = false;
    List<String> names = new ArrayList<>();
    String problem = fields(frame, names);
    if (problem != null) {
      headerProblem = "the header row cannot be read: " + problem;
    } else if (!configuredColumns.isEmpty()) {
      columns = configuredColumns.toArray(new String[0]);
    } else {
      columns = uniqueNames(names);
    }
    return headerProblem;
  }

  @Override
  public Parsed parse(Frame frame) {
    if (frame.length() == 0) {
      return null;
    }
    if (headerProblem != null) {
      return Parsed.rejected(headerProblem);
    }
    List<String> fields = new ArrayList<>(columns.length);
    String problem = fields(frame, fields);
    if (problem != null) {
      return Parsed.rejected(problem);
    }
    if (fields.size() != columns.length) {
      return Parsed.rejected(
          "row has "
              + fields.size()
              + (fields.size() == 1 ? " field" : " fields")
              + " but there are "
              + columns.length
              + " columns");
    }
    if (payloads) {
      return Parsed.value(payload(fields, frame.length()));
    }
    Map<String, Object> row = new LinkedHashMap<>(columns.length * 2);
    for (int i = 0; i < columns.length; i++) {
      row.put(columns[i], fields.get(i));
    }
    return Parsed.value(row);
  }

  /** The row's map as JSON: its column names are distinct, so it is written in their order. */
  private JsonPayload payload(List<String> fields, int expectedBytes) {
    ByteSink out = new ByteSink(expectedBytes + columns.length * 16);
    try (JsonGenerator g = JsonPayload.generator(out)) {
      g.writeStartObject();
      for (int i = 0; i < columns.length; i++) {
        g.writeFieldName(columns[i]);
        String field = fields.get(i);
        if (field == null) {
          g.writeNull();
        } else {
          g.writeString(field);
        }
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new JsonPayload(null, out.toByteArray(), 1);
  }

  /** The fields of one record into {@code out}; the problem, or null. */
  private String fields(Frame frame, List<String> out) {
    byte[] b = frame.buf();
    int start = frame.start();
    int length = frame.length();
    if (Utf8Text.firstInvalid(b, start, length) >= 0) {
      return Utf8Text.problem(b, start, length);
    }
    CharBuffer chars =
        Utf8Text.mayLookLikeUtf16(b, start, length) ? Utf8Text.decode(b, start, length) : null;
    try (CsvParser p =
        (CsvParser)
            (chars == null
                ? CSV.createParser(b, start, length)
                : CSV.createParser(chars.array(), 0, chars.limit()))) {
      p.setSchema(schema);
      p.enable(CsvParser.Feature.EMPTY_UNQUOTED_STRING_AS_NULL);
      if (p.nextToken() != JsonToken.START_ARRAY) {
        return "empty record";
      }
      JsonToken t;
      while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
        out.add(t == JsonToken.VALUE_NULL ? null : p.getText());
      }
      return p.nextToken() == null ? null : "more than one row in the record";
    } catch (JsonProcessingException e) {
      return "malformed CSV: " + e.getOriginalMessage();
    } catch (IOException e) {
      return "malformed CSV: " + e.getMessage();
    }
  }

  /** Header names made usable: an empty name becomes column_N, a repeated one name_2, name_3… */
  private static String[] uniqueNames(List<String> names) {
    String[] unique = new String[names.size()];
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < names.size(); i++) {
      String name =
          names.get(i) == null || names.get(i).isBlank() ? "column_" + (i + 1) : names.get(i);
      String candidate = name;
      for (int n = 2; !seen.add(candidate); n++) {
        candidate = name + "_" + n;
      }
      unique[i] = candidate;
    }
    return unique;
  }
}
