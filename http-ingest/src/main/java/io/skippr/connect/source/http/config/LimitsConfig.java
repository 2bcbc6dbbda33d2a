package io.skippr.connect.source.http.config;

import io.skippr.connect.source.lineprotocol.LineLimits;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * Request limits (over them: 413, nothing accepted) and row limits (over them: the row is
 * rejected).
 */
public final class LimitsConfig {

  public static final String REQUEST_MAX_BYTES = "limits.request.max.bytes";
  public static final String REQUEST_MAX_DECOMPRESSED_BYTES =
      "limits.request.max.decompressed.bytes";
  public static final String REQUEST_MAX_ROWS = "limits.request.max.rows";
  public static final String ROW_MAX_BYTES = "limits.row.max.bytes";
  public static final String ROW_MAX_TAGS = "limits.row.max.tags";
  public static final String ROW_MAX_FIELDS = "limits.row.max.fields";
  public static final String NAME_MAX_BYTES = "limits.name.max.bytes";
  public static final String STRING_MAX_BYTES = "limits.string.max.bytes";
  public static final String TOPICS_MAX = "limits.topics.max";
  public static final String RECORD_MAX_BYTES = "limits.record.max.bytes";
  public static final String REJECTION_INPUT_MAX_BYTES = "limits.rejection.input.max.bytes";

  /** The smallest record limit: room for a rejection record's reason and names. */
  static final int MIN_RECORD_MAX_BYTES = 64 << 10;

  /** The limits of one request and of its rows. */
  public record Values(
      long requestMaxBytes,
      long requestMaxDecompressedBytes,
      int requestMaxRows,
      LineLimits rows,
      int topicsMax,
      int recordMaxBytes,
      int rejectionInputMaxBytes) {}

  private LimitsConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            REQUEST_MAX_BYTES,
            Type.LONG,
            8L << 20,
            Range.atLeast(1),
            Importance.MEDIUM,
            "Largest request body as sent (compressed when Content-Encoding: gzip); larger → 413.")
        .define(
            REQUEST_MAX_DECOMPRESSED_BYTES,
            Type.LONG,
            64L << 20,
            Range.atLeast(1),
            Importance.MEDIUM,
            "Largest request body after gzip decompression, enforced while reading; larger → 413.")
        .define(
            REQUEST_MAX_ROWS,
            Type.INT,
            100_000,
            Range.atLeast(1),
            Importance.MEDIUM,
            "Most rows (lines or JSON items) in one request; more → 413.")
        .define(
            ROW_MAX_BYTES,
            Type.INT,
            1 << 20,
            Range.atLeast(16),
            Importance.LOW,
            "Longest line of line protocol; a longer line is rejected (its rejection record keeps"
                + " the first limits.rejection.input.max.bytes of it). A shorter row whose record"
                + " would exceed limits.record.max.bytes is rejected too.")
        .define(ROW_MAX_TAGS, Type.INT, 256, Range.atLeast(0), Importance.LOW, "Most tags per row.")
        .define(
            ROW_MAX_FIELDS, Type.INT, 256, Range.atLeast(1), Importance.LOW, "Most fields per row.")
        .define(
            NAME_MAX_BYTES,
            Type.INT,
            1024,
            Range.atLeast(1),
            Importance.LOW,
            "Longest measurement name, tag key, tag value or field key (UTF-8 bytes).")
        .define(
            STRING_MAX_BYTES,
            Type.INT,
            256 << 10,
            Range.atLeast(0),
            Importance.LOW,
            "Longest string field value (UTF-8 bytes).")
        .define(
            TOPICS_MAX,
            Type.INT,
            1000,
            Range.atLeast(1),
            Importance.MEDIUM,
            "Most distinct measurements and JSON streams (each one topic, and one lake table) the"
                + " connector accepts, across all its tasks and restarts; a row of a further name is"
                + " rejected with the reason. Not counted when 'topic' sends every row to one"
                + " topic.")
        .define(
            RECORD_MAX_BYTES,
            Type.INT,
            1_000_000,
            Range.atLeast(MIN_RECORD_MAX_BYTES),
            Importance.LOW,
            "Largest record (key, value and headers, counted as Connect's JsonConverter with"
                + " schemas writes them, or the bytes with record.encoding=json) the task hands to"
                + " the producer; a row whose record would be larger is rejected with the reason."
                + " Keep it below the producer's max.request.size (1048576 by default) and the"
                + " topics' max.message.bytes: a record the producer refuses fails its"
                + " transaction and the task.")
        .define(
            REJECTION_INPUT_MAX_BYTES,
            Type.INT,
            64 << 10,
            Range.between(0, 256 << 10),
            Importance.LOW,
            "Most bytes (UTF-8) of a rejected row's input kept in its rejection record; a longer"
                + " input is cut to this (input_truncated=true), and further if the record would"
                + " exceed limits.record.max.bytes.");
  }

  public static Values from(AbstractConfig c) {
    LineLimits rows =
        new LineLimits(
            c.getInt(ROW_MAX_BYTES),
            c.getInt(ROW_MAX_TAGS),
            c.getInt(ROW_MAX_FIELDS),
            c.getInt(NAME_MAX_BYTES),
            c.getInt(STRING_MAX_BYTES));
    return new Values(
        c.getLong(REQUEST_MAX_BYTES),
        c.getLong(REQUEST_MAX_DECOMPRESSED_BYTES),
        c.getInt(REQUEST_MAX_ROWS),
        rows,
        c.getInt(TOPICS_MAX),
        c.getInt(RECORD_MAX_BYTES),
        c.getInt(REJECTION_INPUT_MAX_BYTES));
  }
}
