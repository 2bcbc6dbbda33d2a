package io.skippr.connect.cli.sql;

import io.skippr.connect.lake.convert.RowColumns;
import io.skippr.connect.lake.log.TablePolicyLog;
import java.util.List;

/**
 * How a table's rows relate, as its view needs to know: appended rows are the table; of rows merged
 * by key, the last one of each key is the table, unless it deletes the key.
 *
 * @param keyFields the columns forming the key (empty when appended)
 */
record TablePolicy(boolean byKey, List<String> keyFields) {
  static final TablePolicy APPEND = new TablePolicy(false, List.of());

  TablePolicy {
    keyFields = List.copyOf(keyFields);
  }

  /** Merged by the given value fields; none means the record key, column {@code __key}. */
  static TablePolicy mergeByKey(List<String> keyFields) {
    return new TablePolicy(true, keyFields.isEmpty() ? List.of(RowColumns.KEY) : keyFields);
  }

  /** The policy a lake records: merged by key or appended (replaced partitions read appended). */
  static TablePolicy of(TablePolicyLog.Policy recorded) {
    return recorded.byKey() ? mergeByKey(recorded.keyFields()) : APPEND;
  }

  /** {@code append} or {@code merge_by_key(f1,f2)}. */
  String describe() {
    return byKey ? "merge_by_key(" + String.join(",", keyFields) + ")" : "append";
  }
}
