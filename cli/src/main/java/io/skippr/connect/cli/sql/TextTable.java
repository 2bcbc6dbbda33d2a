package io.skippr.connect.cli.sql;

import java.util.ArrayList;
import java.util.List;

/** A result table printed like psql prints one: numbers right-aligned, text left-aligned. */
final class TextTable {
  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();
  private final List<List<Boolean>> numeric = new ArrayList<>();

  TextTable(List<String> header) {
    this.header = List.copyOf(header);
  }

  void add(List<String> row, List<Boolean> rightAligned) {
    rows.add(List.copyOf(row));
    numeric.add(List.copyOf(rightAligned));
  }

  int size() {
    return rows.size();
  }

  /** The lines of the table, each starting with {@code indent}. */
  List<String> lines(String indent) {
    int[] widths = new int[header.size()];
    for (int c = 0; c < widths.length; c++) {
      widths[c] = header.get(c).length();
      for (List<String> row : rows) {
        widths[c] = Math.max(widths[c], row.get(c).length());
      }
    }
    List<String> lines = new ArrayList<>();
    lines.add(indent + line(header, null, widths));
    StringBuilder rule = new StringBuilder();
    for (int c = 0; c < widths.length; c++) {
      rule.append(c == 0 ? "-" : "-+-").append("-".repeat(widths[c]));
    }
    lines.add(indent + rule.append('-'));
    for (int r = 0; r < rows.size(); r++) {
      lines.add(indent + line(rows.get(r), numeric.get(r), widths));
    }
    return lines;
  }

  private static String line(List<String> cells, List<Boolean> right, int[] widths) {
    StringBuilder out = new StringBuilder();
    for (int c = 0; c < widths.length; c++) {
      String cell = cells.get(c);
      String pad = " ".repeat(widths[c] - cell.length());
      boolean alignRight = right != null && right.get(c);
      out.append(c == 0 ? " " : " | ").append(alignRight ? pad + cell : cell + pad);
    }
    return out.toString().stripTrailing();
  }
}
