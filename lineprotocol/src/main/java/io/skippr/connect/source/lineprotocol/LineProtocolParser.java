package io.skippr.connect.source.lineprotocol;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Parses InfluxDB line protocol, one line at a time, straight from bytes.
 *
 * <p>Follows the line protocol reference: per-element escapes (measurement: comma and space; tag
 * keys, tag values and field keys: comma, equals sign and space; string field values: double quote
 * and backslash; everywhere two backslashes are one), {@code i} and {@code u} integer suffixes with
 * range checks, floats with optional exponent (no NaN or infinity, and no value that overflows to
 * infinity), the ten boolean spellings, comments, names that must not begin with {@code _}, and
 * timestamps within the reference's range. Like InfluxDB's servers it also skips leading spaces and
 * tabs, accepts several spaces between the sections, trailing spaces, and a CR before the LF. Tag
 * and field keys named {@code time} are rejected (that column holds the timestamp).
 *
 * <p>A parser keeps a scratch buffer and a cache of recent names and is not thread-safe: keep one
 * per thread. No exception escapes {@link #parseLine}: any problem becomes a {@link Rejection}.
 */
public final class LineProtocolParser {

  /** Marks digits that do not fit a long (a positive value the negated form never takes). */
  private static final long OVERFLOW = 1L;

  private static final byte[] TIME = {'t', 'i', 'm', 'e'};

  private final LineLimits limits;
  private final NumberParser numbers = new NumberParser();
  private final NameCache names = new NameCache();
  private byte[] scratch = new byte[256];
  private byte[] buf;
  private int pos;
  private int end;
  private int lineStart;

  public LineProtocolParser(LineLimits limits) {
    this.limits = limits;
  }

  /**
   * Parses the line {@code buf[start, end)} (without its LF).
   *
   * @param line the 1-based line number reported with the result
   * @param precision the precision of written timestamps
   * @param defaultTimeNanos the time of points without a timestamp
   * @return the point or rejection, or {@code null} for a blank or comment line
   */
  public LineResult parseLine(
      byte[] buf, int start, int end, int line, Precision precision, long defaultTimeNanos) {
    if (end > start && buf[end - 1] == '\r') {
      end--;
    }
    int first = firstContent(buf, start, end);
    if (first < 0) {
      return null;
    }
    if (end - start > limits.maxLineBytes()) {
      return new Rejection(
          line, "line longer than " + limits.maxLineBytes() + " bytes", text(buf, start, end));
    }
    this.buf = buf;
    this.pos = first;
    this.end = end;
    this.lineStart = start;
    try {
      return parsePoint(line, precision, defaultTimeNanos);
    } catch (ParseFailure failure) {
      return new Rejection(line, failure.getMessage(), text(buf, start, end));
    } catch (RuntimeException unexpected) {
      return new Rejection(line, "unparseable line: " + unexpected, text(buf, start, end));
    } finally {
      this.buf = null;
    }
  }

  /** The index after leading spaces and tabs, or -1 for a blank or comment line. */
  private static int firstContent(byte[] buf, int start, int end) {
    int first = start;
    while (first < end && (buf[first] == ' ' || buf[first] == '\t')) {
      first++;
    }
    return first == end || buf[first] == '#' ? -1 : first;
  }

  /** Decodes bytes for display; malformed UTF-8 becomes U+FFFD. */
  public static String text(byte[] buf, int start, int end) {
    return new String(buf, start, Math.max(0, end - start), StandardCharsets.UTF_8);
  }

  private Point parsePoint(int line, Precision precision, long defaultTimeNanos) {
    String measurement = readName(Element.MEASUREMENT);
    List<Tag> tags = List.of();
    if (pos < end && buf[pos] == ',') {
      pos++;
      tags = readTags();
    }
    if (pos >= end) {
      throw fail("missing fields");
    }
    skipSpaces();
    if (pos >= end) {
      throw fail("missing fields");
    }
    List<Field> fields = readFields(tags);
    long time = defaultTimeNanos;
    skipSpaces();
    if (pos < end) {
      time = readTimestamp(precision);
      skipSpaces();
      if (pos < end) {
        throw fail("unexpected text after the timestamp");
      }
    }
    return new Point(line, measurement, tags, fields, time);
  }

  private List<Tag> readTags() {
    List<Tag> tags = new ArrayList<>(8);
    while (true) {
      String key = readName(Element.TAG_KEY);
      if (pos >= end || buf[pos] != '=') {
        throw fail("missing tag value for tag key '" + key + "'");
      }
      pos++;
      String value = readName(Element.TAG_VALUE);
      if (pos < end && buf[pos] == '=') {
        throw fail("unescaped '=' in tag value");
      }
      if (tags.size() == limits.maxTags()) {
        throw fail("more than " + limits.maxTags() + " tags");
      }
      insertSorted(tags, new Tag(key, value));
      if (pos < end && buf[pos] == ',') {
        pos++;
        continue;
      }
      return tags;
    }
  }

  private void insertSorted(List<Tag> tags, Tag tag) {
    int i = tags.size();
    while (i > 0) {
      int cmp = compareCodePoints(tags.get(i - 1).key(), tag.key());
      if (cmp == 0) {
        throw fail("duplicate tag key '" + tag.key() + "'");
      }
      if (cmp < 0) {
        break;
      }
      i--;
    }
    tags.add(i, tag);
  }

  /** Code point order equals UTF-8 byte order (Go's bytes.Compare), unlike String.compareTo. */
  static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  private List<Field> readFields(List<Tag> tags) {
    List<Field> fields = new ArrayList<>(8);
    while (true) {
      String key = readName(Element.FIELD_KEY);
      if (pos >= end || buf[pos] != '=') {
        throw fail("missing '=' and value after field key '" + key + "'");
      }
      pos++;
      if (pos >= end || buf[pos] == ',' || buf[pos] == ' ') {
        throw fail("missing value for field '" + key + "'");
      }
      Field field = readFieldValue(key);
      addField(fields, tags, field);
      if (pos < end && buf[pos] == ',') {
        pos++;
        if (pos >= end || buf[pos] == ' ') {
          throw fail("missing field after ','");
        }
        continue;
      }
      return fields;
    }
  }

  private void addField(List<Field> fields, List<Tag> tags, Field field) {
    for (Tag tag : tags) {
      if (tag.key().equals(field.key())) {
        throw fail("field key '" + field.key() + "' is also a tag key");
      }
    }
    for (int i = 0; i < fields.size(); i++) {
      Field earlier = fields.get(i);
      if (earlier.key().equals(field.key())) {
        if (earlier.type() != field.type()) {
          throw fail("field '" + field.key() + "' written twice with different types");
        }
        fields.remove(i);
        fields.add(field);
        return;
      }
    }
    if (fields.size() == limits.maxFields()) {
      throw fail("more than " + limits.maxFields() + " fields");
    }
    fields.add(field);
  }

  private Field readFieldValue(String key) {
    byte b = buf[pos];
    Field field;
    if (b == '"') {
      field = new Field(key, FieldType.STRING, readString());
    } else if (b == 't' || b == 'T' || b == 'f' || b == 'F') {
      field = new Field(key, FieldType.BOOLEAN, readBoolean());
    } else if (b == '-' || b == '.' || (b >= '0' && b <= '9')) {
      field = readNumber(key);
    } else {
      throw fail("invalid value for field '" + key + "'");
    }
    if (pos < end && buf[pos] != ',' && buf[pos] != ' ') {
      throw fail("unexpected character after the value of field '" + key + "'");
    }
    return field;
  }

  private Field readNumber(String key) {
    int start = pos;
    while (pos < end && buf[pos] != ',' && buf[pos] != ' ') {
      pos++;
    }
    Field field = numbers.parse(key, buf, start, pos);
    if (field == null) {
      pos = start;
      throw fail(numbers.error());
    }
    return field;
  }

  private Boolean readBoolean() {
    int start = pos;
    while (pos < end && buf[pos] != ',' && buf[pos] != ' ') {
      pos++;
    }
    Boolean value = BooleanSpelling.parse(buf, start, pos);
    if (value == null) {
      pos = start;
      throw fail("invalid boolean");
    }
    return value;
  }

  private String readString() {
    int start = pos;
    pos++;
    int n = 0;
    boolean ascii = true;
    while (pos < end) {
      byte b = buf[pos];
      if (b == '\\' && pos + 1 < end && (buf[pos + 1] == '"' || buf[pos + 1] == '\\')) {
        b = buf[pos + 1];
        pos++;
      } else if (b == '"') {
        pos++;
        if (n > limits.maxStringBytes()) {
          pos = start;
          throw fail("string value longer than " + limits.maxStringBytes() + " bytes");
        }
        return decode(n, ascii, start);
      }
      n = put(n, b);
      ascii &= b >= 0;
      pos++;
    }
    pos = start;
    throw fail("unterminated string value");
  }

  private long readTimestamp(Precision precision) {
    int start = pos;
    boolean negative = buf[pos] == '-';
    if (negative) {
      pos++;
    }
    long negated = readNegatedDigits();
    Long nanos = null;
    if (negated != OVERFLOW && (negative || negated != Long.MIN_VALUE)) {
      nanos = precision.toNanos(negative ? negated : -negated);
    }
    if (nanos == null) {
      pos = start;
      throw fail(
          "timestamp outside the range "
              + Precision.MIN_NANOS
              + " to "
              + Precision.MAX_NANOS
              + " ns");
    }
    return nanos;
  }

  /**
   * Reads digits up to a space or the end as a negative number (Long.MIN_VALUE has no positive
   * counterpart); {@link #OVERFLOW} when they do not fit.
   */
  private long readNegatedDigits() {
    int start = pos;
    long value = 0;
    boolean overflow = false;
    while (pos < end && buf[pos] != ' ') {
      int d = buf[pos] - '0';
      if (d < 0 || d > 9) {
        throw fail("invalid timestamp");
      }
      overflow |= value < (Long.MIN_VALUE + d) / 10;
      value = value * 10 - d;
      pos++;
    }
    if (pos == start) {
      pos = start - (start > 0 && buf[start - 1] == '-' ? 1 : 0);
      throw fail("invalid timestamp");
    }
    return overflow ? OVERFLOW : value;
  }

  private String readName(Element element) {
    int start = pos;
    int n = 0;
    boolean ascii = true;
    while (pos < end) {
      byte b = buf[pos];
      if (b == '\\' && pos + 1 < end && element.escapable(buf[pos + 1])) {
        b = buf[pos + 1];
        pos++;
      } else if (b == ',' || b == ' ' || (b == '=' && element != Element.MEASUREMENT)) {
        break;
      }
      n = put(n, b);
      ascii &= b >= 0;
      pos++;
    }
    checkName(element, n, start);
    if (n > NameCache.MAX_NAME_BYTES) {
      return decode(n, ascii, start);
    }
    String cached = names.get(scratch, n);
    if (cached == null) {
      cached = decode(n, ascii, start);
      names.put(scratch, n, cached);
    }
    return cached;
  }

  private void checkName(Element element, int n, int start) {
    if (n == 0) {
      throw fail("missing " + element.label);
    }
    String problem = null;
    if (n > limits.maxNameBytes()) {
      problem = " longer than " + limits.maxNameBytes() + " bytes";
    } else if (element != Element.TAG_VALUE && scratch[0] == '_') {
      problem = " must not begin with '_'";
    } else if (element.isKey() && n == 4 && Arrays.equals(scratch, 0, 4, TIME, 0, 4)) {
      problem = " 'time' is reserved";
    }
    if (problem != null) {
      pos = start;
      throw fail(element.label + problem);
    }
  }

  private void skipSpaces() {
    while (pos < end && buf[pos] == ' ') {
      pos++;
    }
  }

  private int put(int n, byte b) {
    if (n == scratch.length) {
      scratch = Arrays.copyOf(scratch, n * 2);
    }
    scratch[n] = b;
    return n + 1;
  }

  private String decode(int n, boolean ascii, int start) {
    if (ascii) {
      return new String(scratch, 0, n, StandardCharsets.ISO_8859_1);
    }
    if (!Utf8.isValid(scratch, 0, n)) {
      pos = start;
      throw fail("invalid UTF-8");
    }
    return new String(scratch, 0, n, StandardCharsets.UTF_8);
  }

  private ParseFailure fail(String reason) {
    return new ParseFailure(reason + " at column " + (pos - lineStart + 1));
  }

  /** The elements that differ in what they escape and where they stop. */
  private enum Element {
    MEASUREMENT("measurement"),
    TAG_KEY("tag key"),
    TAG_VALUE("tag value"),
    FIELD_KEY("field key");

    final String label;

    Element(String label) {
      this.label = label;
    }

    boolean escapable(byte next) {
      return next == ',' || next == ' ' || next == '\\' || (next == '=' && this != MEASUREMENT);
    }

    boolean isKey() {
      return this == TAG_KEY || this == FIELD_KEY;
    }
  }

  /** Internal control flow only; carries the reason, never escapes {@link #parseLine}. */
  private static final class ParseFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ParseFailure(String reason) {
      super(reason, null, false, false);
    }
  }
}
