package io.skippr.connect.lake.convert;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Values;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The {@code __headers} column ({@code include.headers=true}): a record's headers in their order,
 * duplicates kept, each a key and its value as a string, rendered as the header converter renders
 * it ({@link Values#convertToString}, as Connect's {@code SimpleHeaderConverter} writes headers).
 */
final class HeaderColumn {
  static final Schema ENTRY_SCHEMA =
      SchemaBuilder.struct()
          .field("key", Schema.STRING_SCHEMA)
          .field("value", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  /** Optional, so files written before a table had it widen to it. */
  static final Schema SCHEMA = SchemaBuilder.array(ENTRY_SCHEMA).optional().build();

  private HeaderColumn() {}

  /** The record's headers as column values; empty when it has none. */
  static List<Struct> of(SinkRecord record) {
    List<Struct> entries = new ArrayList<>();
    for (Header header : record.headers()) {
      entries.add(
          new Struct(ENTRY_SCHEMA)
              .put("key", header.key())
              .put(
                  "value",
                  header.value() == null
                      ? null
                      : Values.convertToString(header.schema(), header.value())));
    }
    return entries;
  }
}
