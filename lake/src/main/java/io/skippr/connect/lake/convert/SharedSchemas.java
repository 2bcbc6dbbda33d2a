package io.skippr.connect.lake.convert;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.data.Schema;

/**
 * Where the inferred schema of each schemaless table lives, so that every task writing the table
 * and every restart use one schema: a table's schema moves from version to version, and of two
 * writers proposing the same next version exactly one wins.
 */
public interface SharedSchemas {
  /** One version of a table's schema; version 0 is "none yet". */
  record Versioned(long version, Schema schema) {}

  /** The table's newest schema, if any was stored. */
  Optional<Versioned> current(String table);

  /**
   * Proposes {@code schema} as the version after {@code after}.
   *
   * @return the version that is now the table's newest: this one, or one a concurrent writer stored
   *     first (then re-fit the value against it)
   */
  Versioned propose(String table, long after, Schema schema);

  /** Schemas kept in this converter only: each task infers on its own (tests, tools). */
  static SharedSchemas inMemory() {
    Map<String, Versioned> tables = new HashMap<>();
    return new SharedSchemas() {
      @Override
      public Optional<Versioned> current(String table) {
        return Optional.ofNullable(tables.get(table));
      }

      @Override
      public Versioned propose(String table, long after, Schema schema) {
        Versioned current = tables.get(table);
        if (current != null && current.version() > after) {
          return current;
        }
        Versioned next = new Versioned(after + 1, schema);
        tables.put(table, next);
        return next;
      }
    };
  }
}
