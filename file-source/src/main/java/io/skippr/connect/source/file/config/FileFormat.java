package io.skippr.connect.source.file.config;

import java.util.Locale;

/** How the lines of a file become records. */
public enum FileFormat {
  /** One JSON object per line, as a schemaless map. */
  NDJSON,
  /** RFC 4180 CSV, a row as a map of strings named by the header or csv.columns. */
  CSV,
  /** InfluxDB line protocol, as the HTTP ingest source makes its records. */
  LINEPROTOCOL;

  /** The spelling in the configuration. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  static FileFormat parse(String text) {
    return valueOf(text.trim().toUpperCase(Locale.ROOT));
  }
}
