package io.skippr.connect.source.file.config;

import io.skippr.connect.source.lineprotocol.Precision;
import java.util.List;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/** The file format, its dialect, and the limits of one line and one batch. */
public final class FormatConfig {

  public static final String FORMAT = "file.format";
  public static final String CSV_HEADER = "csv.header";
  public static final String CSV_DELIMITER = "csv.delimiter";
  public static final String CSV_QUOTE = "csv.quote";
  public static final String CSV_COLUMNS = "csv.columns";
  public static final String PRECISION = "lineprotocol.precision";
  public static final String MAX_LINE_BYTES = "file.max.line.bytes";
  public static final String BATCH_MAX_RECORDS = "file.batch.max.records";

  /** CSV dialect: header, delimiter, quote and column names. */
  public record Csv(boolean header, char delimiter, char quote, List<String> columns) {}

  /**
   * @param format how lines become records
   * @param csv the CSV dialect (used with {@link FileFormat#CSV})
   * @param precision the precision of line protocol timestamps
   * @param maxLineBytes longest line (CSV: record, with its quoted newlines) in bytes
   * @param batchMaxRecords most records one poll returns
   */
  public record Values(
      FileFormat format, Csv csv, Precision precision, int maxLineBytes, int batchMaxRecords) {}

  private FormatConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return defineCsv(
        def.define(
                FORMAT,
                Type.STRING,
                ConfigDef.NO_DEFAULT_VALUE,
                ConfigDef.CaseInsensitiveValidString.in("ndjson", "csv", "lineprotocol"),
                Importance.HIGH,
                "ndjson: one JSON object per line, sent as a schemaless map. csv: RFC 4180 rows"
                    + " (quoted fields may hold delimiters, quotes and newlines), sent as maps of"
                    + " strings named by the header. lineprotocol: InfluxDB line protocol, sent"
                    + " exactly as the HTTP ingest source sends it (topic per measurement, series"
                    + " key, Struct value).")
            .define(
                PRECISION,
                Type.STRING,
                "ns",
                PRECISION_VALIDATOR,
                Importance.MEDIUM,
                "Precision of line protocol timestamps: ns (Telegraf's file output), us, ms, s,"
                    + " or auto (guessed from the magnitude). A line without a timestamp gets the"
                    + " time it is read.")
            .define(
                MAX_LINE_BYTES,
                Type.INT,
                512 * 1024,
                Range.between(16, 64 << 20),
                Importance.MEDIUM,
                "Longest line in bytes (for CSV: one record, with its quoted newlines). A longer"
                    + " line is rejected and skipped without ever being held whole. Keep records"
                    + " below the producer's max.request.size (1 MiB by default).")
            .define(
                BATCH_MAX_RECORDS,
                Type.INT,
                10_000,
                Range.between(1, 1_000_000),
                Importance.LOW,
                "Most records (rejections included) one poll returns; with exactly-once support"
                    + " one poll is one transaction unless transaction.boundary says otherwise."));
  }

  private static ConfigDef defineCsv(ConfigDef def) {
    return def.define(
            CSV_HEADER,
            Type.BOOLEAN,
            true,
            Importance.MEDIUM,
            "The first row of each CSV file names the columns (a UTF-8 byte order mark before it"
                + " is skipped). false: every row is data, named by csv.columns.")
        .define(
            CSV_DELIMITER,
            Type.STRING,
            ",",
            ONE_CHARACTER,
            Importance.MEDIUM,
            "The CSV field delimiter, one character (a tab in JSON is \"\\t\").")
        .define(
            CSV_QUOTE,
            Type.STRING,
            "\"",
            ONE_CHARACTER,
            Importance.LOW,
            "The CSV quote character; inside a quoted field it is written twice.")
        .define(
            CSV_COLUMNS,
            Type.LIST,
            "",
            Importance.MEDIUM,
            "Column names, in order, for CSV files without a header (csv.header=false). With a"
                + " header, names given here replace the header's names (the header row is still"
                + " skipped).");
  }

  public static Values from(AbstractConfig c) {
    String delimiter = c.getString(CSV_DELIMITER);
    String quote = c.getString(CSV_QUOTE);
    Csv csv =
        new Csv(
            c.getBoolean(CSV_HEADER),
            delimiter.charAt(0),
            quote.charAt(0),
            c.getList(CSV_COLUMNS).stream().map(String::trim).toList());
    return new Values(
        FileFormat.parse(c.getString(FORMAT)),
        csv,
        Precision.parse(c.getString(PRECISION)).orElseThrow(),
        c.getInt(MAX_LINE_BYTES),
        c.getInt(BATCH_MAX_RECORDS));
  }

  private static final ConfigDef.Validator ONE_CHARACTER =
      new ConfigDef.Validator() {
        @Override
        public void ensureValid(String name, Object value) {
          String text = (String) value;
          if (text == null || text.length() != 1) {
            throw new ConfigException(name, value, "must be exactly one character");
          }
          char c = text.charAt(0);
          if (c == '\n' || c == '\r') {
            throw new ConfigException(name, value, "cannot be a line break");
          }
          if (c > 0x7f) {
            throw new ConfigException(name, value, "must be an ASCII character");
          }
        }

        @Override
        public String toString() {
          return "one ASCII character, not a line break";
        }
      };

  private static final ConfigDef.Validator PRECISION_VALIDATOR =
      new ConfigDef.Validator() {
        @Override
        public void ensureValid(String name, Object value) {
          if (value == null || Precision.parse((String) value).isEmpty()) {
            throw new ConfigException(name, value, "not a precision: use ns, us, ms, s or auto");
          }
        }

        @Override
        public String toString() {
          return "ns, us, ms, s, m, h or auto";
        }
      };
}
