package io.skippr.connect.source.lineprotocol;

/**
 * One field of a point. The value is a {@link Double}, {@link Long} (INTEGER, and UINTEGER as the
 * unsigned bit pattern: use {@link Long#toUnsignedString(long)}), {@link Boolean} or {@link
 * String}.
 */
public record Field(String key, FieldType type, Object value) {

  /** Whether an UINTEGER value is above {@link Long#MAX_VALUE} (its bit pattern is negative). */
  public boolean exceedsSignedLong() {
    return type == FieldType.UINTEGER && (Long) value < 0;
  }
}
