package io.skippr.connect.source.poll.config;

import java.util.Locale;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/** How records are positioned: a cursor, a tie-breaker for equal cursors, and how they compare. */
public final class CursorConfig {

  public static final String POINTER = "cursor.pointer";
  public static final String PARAM = "cursor.param";
  public static final String INITIAL = "cursor.initial";
  public static final String TIEBREAK_POINTER = "cursor.tiebreak.pointer";
  public static final String TYPE = "cursor.type";

  /** How cursor (and tie-breaker) values compare. */
  public enum CursorType {
    /** Numbers as numbers, ISO-8601 instants as instants, anything else as text. */
    AUTO,
    NUMBER,
    TIMESTAMP,
    STRING
  }

  /**
   * @param pointer JSON pointer inside a record to its cursor; empty: no cursor (every pass
   *     delivers every record again)
   * @param param query parameter carrying the cursor; empty: none
   * @param initial cursor of the very first pass; null: no cursor is sent then
   * @param tiebreakPointer JSON pointer to a unique field ordering records of equal cursor; empty:
   *     none
   */
  public record Values(
      String pointer, String param, String initial, String tiebreakPointer, CursorType type) {
    public boolean hasCursor() {
      return !pointer.isEmpty();
    }

    public boolean hasTiebreak() {
      return !tiebreakPointer.isEmpty();
    }
  }

  private CursorConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            POINTER,
            Type.STRING,
            "",
            Validators.JSON_POINTER,
            Importance.HIGH,
            "JSON pointer, inside a record, to its cursor value: a timestamp or an increasing id"
                + " (e.g. /updated_at). The API must list records in ascending cursor order."
                + " Empty: no cursor; every pass then delivers every record again (snapshots).")
        .define(
            PARAM,
            Type.STRING,
            "",
            Importance.HIGH,
            "Query parameter that carries the cursor of the pass (e.g. since), when http.url has"
                + " no ${cursor}. The API should return records at or after it (inclusive).")
        .define(
            INITIAL,
            Type.STRING,
            null,
            Importance.MEDIUM,
            "Cursor of the very first pass, when neither Kafka nor the state store has an offset."
                + " Unset: the first pass sends no cursor (and ${cursor} is empty).")
        .define(
            TIEBREAK_POINTER,
            Type.STRING,
            "",
            Validators.JSON_POINTER,
            Importance.MEDIUM,
            "JSON pointer to a second, unique field (an id) that orders records with equal"
                + " cursors; the API must sort by (cursor, tie-breaker). Without it, records that"
                + " share the cursor of the last delivered record and appear after its pass are"
                + " missed.")
        .define(
            TYPE,
            Type.STRING,
            "auto",
            Validators.oneOf("auto", "number", "timestamp", "string"),
            Importance.LOW,
            "How cursor and tie-breaker values compare: number, timestamp (ISO-8601), string"
                + " (lexicographic), or auto: numbers as numbers, ISO-8601 instants as instants,"
                + " anything else as text. Mixed kinds order numbers first, then instants, then"
                + " text.");
  }

  public static Values from(AbstractConfig c) {
    String initial = c.getString(INITIAL);
    return new Values(
        c.getString(POINTER),
        c.getString(PARAM).trim(),
        initial,
        c.getString(TIEBREAK_POINTER),
        CursorType.valueOf(c.getString(TYPE).toUpperCase(Locale.ROOT)));
  }
}
