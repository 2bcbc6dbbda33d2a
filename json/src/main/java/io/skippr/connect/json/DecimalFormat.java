package io.skippr.connect.json;

/** How Connect decimals are written: base64 of the unscaled bytes (Kafka's default) or a number. */
public enum DecimalFormat {
  /** A JSON string: base64 of the two's-complement unscaled value, as Kafka's converter writes. */
  BASE64,
  /** A JSON number with the decimal's digits and scale. */
  NUMERIC
}
