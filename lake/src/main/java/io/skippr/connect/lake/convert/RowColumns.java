package io.skippr.connect.lake.convert;

import java.util.Set;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Timestamp;

/** Names and schemas of the columns the converter adds to the record's own fields. */
public final class RowColumns {
  /** The single column of a record whose value is not a struct. */
  public static final String VALUE = "value";

  public static final String KEY = "__key";
  public static final String TOPIC = "__topic";
  public static final String PARTITION = "__partition";
  public static final String OFFSET = "__offset";
  public static final String TIMESTAMP = "__timestamp";
  public static final String DELETED = "__deleted";
  public static final String HEADERS = "__headers";

  static final Schema TOPIC_SCHEMA = Schema.STRING_SCHEMA;
  static final Schema PARTITION_SCHEMA = Schema.INT32_SCHEMA;
  static final Schema OFFSET_SCHEMA = Schema.INT64_SCHEMA;
  static final Schema TIMESTAMP_SCHEMA = Timestamp.builder().optional().build();

  /** Optional, so files written before a table had it widen to it (their rows delete nothing). */
  static final Schema DELETED_SCHEMA = Schema.OPTIONAL_BOOLEAN_SCHEMA;

  static final Set<String> ADDED =
      Set.of(KEY, TOPIC, PARTITION, OFFSET, TIMESTAMP, DELETED, HEADERS);

  private RowColumns() {}
}
