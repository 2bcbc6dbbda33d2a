package io.skippr.connect.cli.sql;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.RawValue;
import java.io.PrintWriter;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Struct;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.duckdb.DuckDBStruct;
import org.duckdb.JsonNode;

/**
 * Prints a result set: {@code table} as psql does (numbers right-aligned, a row count below),
 * {@code csv} as RFC 4180 with a header, {@code json} as an array of one object per row. Values
 * print as DuckDB writes them; in JSON numbers and booleans stay numbers and booleans, and lists,
 * structs, maps and JSON values stay nested.
 */
final class ResultPrinter {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The formats. */
  enum Output {
    table,
    csv,
    json
  }

  private ResultPrinter() {}

  /** Prints every row; returns how many there were. */
  static int print(ResultSet rs, Output output, PrintWriter out, String indent)
      throws SQLException {
    List<String> columns = columns(rs.getMetaData());
    int rows =
        switch (output) {
          case table -> table(rs, columns, out, indent);
          case csv -> csv(rs, columns, out);
          case json -> json(rs, columns, out);
        };
    out.flush();
    return rows;
  }

  private static List<String> columns(ResultSetMetaData meta) throws SQLException {
    List<String> columns = new ArrayList<>();
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      columns.add(meta.getColumnLabel(i));
    }
    return columns;
  }

  private static int table(ResultSet rs, List<String> columns, PrintWriter out, String indent)
      throws SQLException {
    TextTable table = new TextTable(columns);
    while (rs.next()) {
      List<String> cells = new ArrayList<>();
      List<Boolean> numeric = new ArrayList<>();
      for (int i = 1; i <= columns.size(); i++) {
        Object value = rs.getObject(i);
        cells.add(value == null ? "NULL" : text(rs, i, value));
        numeric.add(value instanceof Number);
      }
      table.add(cells, numeric);
    }
    table.lines(indent).forEach(out::println);
    out.println(indent + "(" + table.size() + (table.size() == 1 ? " row)" : " rows)"));
    return table.size();
  }

  private static int csv(ResultSet rs, List<String> columns, PrintWriter out) throws SQLException {
    out.println(String.join(",", columns.stream().map(ResultPrinter::csvField).toList()));
    int rows = 0;
    while (rs.next()) {
      List<String> fields = new ArrayList<>();
      for (int i = 1; i <= columns.size(); i++) {
        Object object = rs.getObject(i);
        String value = object == null ? null : text(rs, i, object);
        fields.add(value == null ? "" : value.isEmpty() ? "\"\"" : csvField(value));
      }
      out.println(String.join(",", fields));
      rows++;
    }
    return rows;
  }

  /** A field quoted when it holds a delimiter, a quote or a line break (quotes doubled). */
  static String csvField(String value) {
    if (value.indexOf(',') < 0
        && value.indexOf('"') < 0
        && value.indexOf('\n') < 0
        && value.indexOf('\r') < 0) {
      return value;
    }
    return "\"" + value.replace("\"", "\"\"") + "\"";
  }

  private static int json(ResultSet rs, List<String> columns, PrintWriter out) throws SQLException {
    out.print("[");
    int rows = 0;
    while (rs.next()) {
      Map<String, Object> row = new LinkedHashMap<>();
      for (int i = 1; i <= columns.size(); i++) {
        Object value = rs.getObject(i);
        row.put(
            columns.get(i - 1),
            nests(value) ? json(value) : value == null ? null : scalar(rs, i, value));
      }
      out.print(rows == 0 ? "\n" : ",\n");
      out.print(write(row));
      rows++;
    }
    out.println(rows == 0 ? "]" : "\n]");
    return rows;
  }

  private static Object scalar(ResultSet rs, int column, Object value) throws SQLException {
    return value instanceof Boolean || value instanceof Number ? value : text(rs, column, value);
  }

  /**
   * A value as DuckDB writes it, but an instant always in full ISO-8601 UTC (the driver's text
   * drops zero seconds).
   */
  private static String text(ResultSet rs, int column, Object value) throws SQLException {
    return value instanceof OffsetDateTime time ? instant(time) : rs.getString(column);
  }

  private static String instant(OffsetDateTime time) {
    return DateTimeFormatter.ISO_INSTANT.format(time.toInstant());
  }

  private static boolean nests(Object value) {
    return value instanceof Array
        || value instanceof Struct
        || value instanceof Map
        || value instanceof JsonNode;
  }

  /** A value as Jackson writes it: nested values as lists and objects, JSON as it is. */
  private static Object json(Object value) throws SQLException {
    if (value == null || value instanceof Boolean || value instanceof Number) {
      return value;
    }
    if (value instanceof JsonNode node) {
      return new RawValue(node.toString());
    }
    if (value instanceof OffsetDateTime time) {
      return instant(time);
    }
    if (value instanceof Array array) {
      List<Object> items = new ArrayList<>();
      for (Object item : (Object[]) array.getArray()) {
        items.add(json(item));
      }
      return items;
    }
    if (value instanceof DuckDBStruct struct) {
      return json(struct.getMap());
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> object = new LinkedHashMap<>();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        object.put(String.valueOf(entry.getKey()), json(entry.getValue()));
      }
      return object;
    }
    return value.toString();
  }

  private static String write(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write a row as JSON", e);
    }
  }
}
