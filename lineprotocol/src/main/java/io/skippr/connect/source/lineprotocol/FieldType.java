package io.skippr.connect.source.lineprotocol;

/** The value types of line protocol fields. */
public enum FieldType {
  /** IEEE-754 64-bit float; a number without suffix. */
  FLOAT,
  /** Signed 64-bit integer; suffix {@code i}. */
  INTEGER,
  /** Unsigned 64-bit integer; suffix {@code u}; held in a long as its unsigned bit pattern. */
  UINTEGER,
  /** Double-quoted string. */
  STRING,
  /** One of t, T, true, True, TRUE, f, F, false, False, FALSE. */
  BOOLEAN
}
