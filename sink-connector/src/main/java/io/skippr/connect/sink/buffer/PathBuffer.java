package io.skippr.connect.sink.buffer;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/** The rows of one unit that go to one file: one table partition path. */
public final class PathBuffer {
  private final String table;
  private final String partitionPath;
  private final List<Struct> rows = new ArrayList<>();
  private Schema schema;
  private Schema lastIncoming;
  private long bytes;

  PathBuffer(String table, String partitionPath, Schema schema) {
    this.table = table;
    this.partitionPath = partitionPath;
    this.schema = schema;
    this.lastIncoming = schema;
  }

  /**
   * Adds a row when its schema fits the file schema (widening the file schema when the merge
   * allows).
   *
   * @return false when the row's schema cannot share a file with the rows buffered
   */
  boolean add(Struct row, long estimatedBytes, SchemaMerge merge) {
    Schema incoming = row.schema();
    if (incoming != lastIncoming && incoming != schema && !incoming.equals(schema)) {
      var merged = merge.merge(schema, incoming);
      if (merged.isEmpty()) {
        return false;
      }
      schema = merged.get();
    }
    lastIncoming = incoming;
    rows.add(row);
    bytes += estimatedBytes;
    return true;
  }

  public String table() {
    return table;
  }

  public String partitionPath() {
    return partitionPath;
  }

  /** The file schema: every buffered row's schema widens to it. */
  public Schema schema() {
    return schema;
  }

  public List<Struct> rows() {
    return rows;
  }

  public long bytes() {
    return bytes;
  }
}
