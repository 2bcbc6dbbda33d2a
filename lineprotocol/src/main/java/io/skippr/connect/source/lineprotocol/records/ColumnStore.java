package io.skippr.connect.source.lineprotocol.records;

import java.util.Map;

/**
 * Where the columns of each measurement are kept between rows, tasks and restarts. A save is
 * conditional on the version it was computed from, so tasks that share a store agree on each
 * column's type: the first to save a column fixes it, the others re-read and re-check.
 */
public interface ColumnStore {

  /**
   * A measurement's columns as stored.
   *
   * @param version 0 when nothing is stored yet
   * @param columns in the order they were added (never modified once returned)
   */
  record Stored(long version, Map<String, ColumnKind> columns) {
    public static final Stored NONE = new Stored(0, Map.of());
  }

  /** The stored columns of the measurement ({@link Stored#NONE} when none). */
  Stored load(String measurement);

  /**
   * Stores the columns if the stored version is still {@code expectedVersion}.
   *
   * @return false when another writer saved first (nothing was written)
   */
  boolean save(String measurement, long expectedVersion, Map<String, ColumnKind> columns);

  /** Keeps nothing: each converter learns the columns from the rows it sees (file source). */
  ColumnStore NONE =
      new ColumnStore() {
        @Override
        public Stored load(String measurement) {
          return Stored.NONE;
        }

        @Override
        public boolean save(
            String measurement, long expectedVersion, Map<String, ColumnKind> columns) {
          return true;
        }
      };
}
