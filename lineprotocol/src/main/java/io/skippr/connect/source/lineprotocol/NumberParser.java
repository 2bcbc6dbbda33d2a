package io.skippr.connect.source.lineprotocol;

import java.nio.charset.StandardCharsets;

/**
 * Numeric field values: {@code -?digits i} (signed 64-bit), {@code digits u} (unsigned 64-bit) and
 * floats {@code -?[digits][.digits][(e|E)[+|-]digits]} with at least one mantissa digit. Exact
 * small values are computed without allocation; others go through {@link Double#parseDouble}.
 */
final class NumberParser {

  private static final double[] POWERS_OF_TEN = new double[23];

  static {
    double p = 1;
    for (int i = 0; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = p;
      p *= 10;
    }
  }

  private String error;
  private long mantissa;
  private int significant;
  private int scale;

  /** Why the last {@link #parse} returned null. */
  String error() {
    return error;
  }

  /** The field for {@code buf[start, end)}, or null (see {@link #error()}). */
  Field parse(String key, byte[] buf, int start, int end) {
    byte last = buf[end - 1];
    if (last == 'i') {
      return integer(key, buf, start, end - 1);
    } else if (last == 'u') {
      return unsigned(key, buf, start, end - 1);
    }
    return floating(key, buf, start, end);
  }

  private Field integer(String key, byte[] buf, int start, int end) {
    boolean negative = start < end && buf[start] == '-';
    int i = negative ? start + 1 : start;
    if (i == end) {
      return failed("invalid integer value for field '" + key + "'");
    }
    long value = 0;
    for (; i < end; i++) {
      int d = buf[i] - '0';
      if (d < 0 || d > 9) {
        return failed("invalid integer value for field '" + key + "'");
      }
      if (value < (Long.MIN_VALUE + d) / 10) {
        return failed("integer value of field '" + key + "' outside the signed 64-bit range");
      }
      value = value * 10 - d;
    }
    if (!negative && value == Long.MIN_VALUE) {
      return failed("integer value of field '" + key + "' outside the signed 64-bit range");
    }
    return new Field(key, FieldType.INTEGER, negative ? value : -value);
  }

  private Field unsigned(String key, byte[] buf, int start, int end) {
    if (start == end) {
      return failed("invalid unsigned integer value for field '" + key + "'");
    }
    long value = 0;
    for (int i = start; i < end; i++) {
      int d = buf[i] - '0';
      if (d < 0 || d > 9) {
        return failed("invalid unsigned integer value for field '" + key + "'");
      }
      long times10 = value * 10;
      if (Long.compareUnsigned(value, Long.divideUnsigned(-1L, 10)) > 0
          || Long.compareUnsigned(times10 + d, times10) < 0) {
        return failed("unsigned integer value of field '" + key + "' above 18446744073709551615");
      }
      value = times10 + d;
    }
    return new Field(key, FieldType.UINTEGER, value);
  }

  private Field floating(String key, byte[] buf, int start, int end) {
    boolean negative = buf[start] == '-';
    int i = scanMantissa(buf, negative ? start + 1 : start, end);
    if (i < 0) {
      return failed("invalid number value for field '" + key + "'");
    }
    int exponent = 0;
    if (i < end) {
      exponent = exponent(buf, i + 1, end);
      if (exponent == Integer.MIN_VALUE) {
        return failed("invalid exponent in the value of field '" + key + "'");
      }
    }
    double value = exact(mantissa, significant, scale, exponent);
    if (!Double.isNaN(value)) {
      return new Field(key, FieldType.FLOAT, negative ? -value : value);
    }
    value = Double.parseDouble(new String(buf, start, end - start, StandardCharsets.ISO_8859_1));
    if (Double.isInfinite(value)) {
      return failed("float value of field '" + key + "' outside the 64-bit range");
    }
    return new Field(key, FieldType.FLOAT, value);
  }

  /**
   * Reads {@code [digits][.digits]} up to e/E or the end into {@link #mantissa} (first 18
   * significant digits), {@link #significant} and {@link #scale}; returns the index after it, or -1
   * when malformed or without digits.
   */
  private int scanMantissa(byte[] buf, int i, int end) {
    mantissa = 0;
    significant = 0;
    scale = 0;
    boolean dot = false;
    boolean digits = false;
    for (; i < end && buf[i] != 'e' && buf[i] != 'E'; i++) {
      byte b = buf[i];
      if (b == '.' && !dot) {
        dot = true;
      } else if (b < '0' || b > '9') {
        return -1;
      } else {
        digits = true;
        addDigit(b - '0', dot);
      }
    }
    return digits ? i : -1;
  }

  private void addDigit(int d, boolean afterDot) {
    if (mantissa == 0 && d == 0) {
      scale -= afterDot ? 1 : 0;
      return;
    }
    significant++;
    if (significant <= 18) {
      mantissa = mantissa * 10 + d;
      scale -= afterDot ? 1 : 0;
    } else {
      scale += afterDot ? 0 : 1;
    }
  }

  /** The exponent digits after e/E, clamped to ±99999; MIN_VALUE when malformed. */
  private static int exponent(byte[] buf, int i, int end) {
    boolean negative = false;
    if (i < end && (buf[i] == '+' || buf[i] == '-')) {
      negative = buf[i] == '-';
      i++;
    }
    if (i == end) {
      return Integer.MIN_VALUE;
    }
    int value = 0;
    for (; i < end; i++) {
      int d = buf[i] - '0';
      if (d < 0 || d > 9) {
        return Integer.MIN_VALUE;
      }
      value = Math.min(99_999, value * 10 + d);
    }
    return negative ? -value : value;
  }

  /** Correctly rounded when mantissa < 2^53 and the power of ten is exact; else NaN. */
  private static double exact(long mantissa, int significant, int scale, int exponent) {
    if (mantissa == 0) {
      return 0.0;
    }
    int e10 = scale + exponent;
    if (significant > 15 || e10 < -22 || e10 > 22) {
      return Double.NaN;
    }
    return e10 < 0 ? mantissa / POWERS_OF_TEN[-e10] : mantissa * POWERS_OF_TEN[e10];
  }

  private Field failed(String reason) {
    this.error = reason;
    return null;
  }
}
