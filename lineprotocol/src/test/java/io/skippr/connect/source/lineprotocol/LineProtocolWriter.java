package io.skippr.connect.source.lineprotocol;

/** Writes a point as line protocol (test helper: the reverse of the parser). */
final class LineProtocolWriter {

  private LineProtocolWriter() {}

  static String write(Point point) {
    StringBuilder sb = new StringBuilder(point.seriesKey()).append(' ');
    for (int i = 0; i < point.fields().size(); i++) {
      Field f = point.fields().get(i);
      if (i > 0) {
        sb.append(',');
      }
      escapeKey(sb, f.key());
      sb.append('=');
      switch (f.type()) {
        case FLOAT -> sb.append(Double.toString((Double) f.value()).replace("Infinity", "x"));
        case INTEGER -> sb.append(f.value()).append('i');
        case UINTEGER -> sb.append(Long.toUnsignedString((Long) f.value())).append('u');
        case BOOLEAN -> sb.append(f.value());
        default ->
            sb.append('"')
                .append(((String) f.value()).replace("\\", "\\\\").replace("\"", "\\\""))
                .append('"');
      }
    }
    return sb.append(' ').append(point.timeNanos()).toString();
  }

  private static void escapeKey(StringBuilder sb, String key) {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c == ',' || c == '=' || c == ' ' || c == '\\') {
        sb.append('\\');
      }
      sb.append(c);
    }
  }
}
