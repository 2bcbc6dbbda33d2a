package io.skippr.connect.lake.buffer;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * The rows of one unit that go to one file: one table partition path. Rows are held as objects
 * until {@link #compact} turns them into bytes (under memory pressure); {@link #rows} gives them
 * all back in the order they were added.
 */
public final class PathBuffer {
  private final String table;
  private final String partitionPath;

  /** The rows held as objects: added after every compacted row. */
  private final List<Struct> rows = new ArrayList<>();

  /** The estimated bytes of each row in {@link #rows}. */
  private int[] rowBytes = new int[16];

  private CompactRows compacted;
  private boolean compactable = true;
  private Schema schema;
  private Schema lastIncoming;
  private long bytes;
  private long objectBytes;

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
    if (rows.size() == rowBytes.length) {
      rowBytes = Arrays.copyOf(rowBytes, rowBytes.length * 2);
    }
    rowBytes[rows.size()] = (int) Math.min(Integer.MAX_VALUE, estimatedBytes);
    rows.add(row);
    bytes += estimatedBytes;
    objectBytes += estimatedBytes;
    return true;
  }

  /**
   * Turns the rows held as objects into compact bytes, in order; a row holding a value the codec
   * does not know stops it (that row and the later ones stay objects, and the path is not compacted
   * again).
   *
   * @return the bytes this freed (their estimate less the compact bytes they take)
   */
  long compact(RowArena arena) {
    if (rows.isEmpty() || !compactable) {
      return 0;
    }
    long grown = 0;
    long freed = 0;
    if (compacted == null) {
      compacted = new CompactRows(arena);
      grown += CompactRows.OVERHEAD + 64;
    }
    int done = 0;
    for (; done < rows.size(); done++) {
      long added = compacted.add(rows.get(done));
      if (added < 0) {
        compactable = false;
        break;
      }
      grown += added;
      freed += rowBytes[done];
    }
    rows.subList(0, done).clear();
    System.arraycopy(rowBytes, done, rowBytes, 0, rows.size());
    objectBytes -= freed;
    bytes += grown - freed;
    return freed - grown;
  }

  /** The estimated bytes of the rows still held as objects. */
  long objectBytes() {
    return compactable ? objectBytes : 0;
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

  /**
   * Every row, in the order added: the compacted ones read back from their bytes (each read makes a
   * new struct), then those held as objects.
   */
  public List<Struct> rows() {
    return compacted == null ? rows : new Rows(compacted, rows);
  }

  /** Compacted rows, read back from their bytes, followed by the rows held as objects. */
  private static final class Rows extends AbstractList<Struct> implements RandomAccess {
    private final CompactRows compacted;
    private final List<Struct> objects;

    Rows(CompactRows compacted, List<Struct> objects) {
      this.compacted = compacted;
      this.objects = objects;
    }

    @Override
    public Struct get(int index) {
      int first = compacted.size();
      return index < first ? compacted.get(index) : objects.get(index - first);
    }

    @Override
    public int size() {
      return compacted.size() + objects.size();
    }
  }

  public long bytes() {
    return bytes;
  }
}
