package io.skippr.connect.sink.buffer;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Rows of one partition path held as bytes ({@link RowCodec}) instead of objects: a third to a
 * quarter of the heap for typical rows, so the same {@code buffer.max.bytes} holds several times
 * the rows, and a partition path's file is that much larger. Bytes live in chunks that grow from 1
 * KiB to 64 KiB; a row never spans two chunks. Rows read back in the order they were added. Not
 * thread-safe: filled by the task's thread, read by one file writer after the unit is cut.
 */
final class CompactRows {
  private static final int FIRST_CHUNK = 1 << 10;
  private static final int MAX_CHUNK = 64 << 10;

  /** What a chunk costs besides its bytes (array header, list slots). */
  static final int CHUNK_OVERHEAD = 32;

  /** What an empty instance costs (its lists and schema table). */
  static final int BASE_OVERHEAD = 256;

  private final List<byte[]> chunks = new ArrayList<>();
  private final List<Integer> used = new ArrayList<>();
  private final List<Schema> schemas = new ArrayList<>();
  private final Map<Schema, Integer> schemaIndex = new IdentityHashMap<>();
  private int rows;
  private long allocated = BASE_OVERHEAD;

  /**
   * Adds a row.
   *
   * @param scratch where the row is encoded first (shared: only the task's thread compacts)
   * @return the bytes this buffer grew by, or -1 when the row holds a value the codec does not know
   *     (nothing was added)
   */
  long add(Struct row, RowCodec.Sink scratch) {
    Schema schema = row.schema();
    Integer index = schemaIndex.get(schema);
    scratch.reset();
    scratch.writeVarLong(index == null ? schemas.size() : index);
    if (!RowCodec.writeStruct(scratch, row, schema)) {
      return -1;
    }
    if (index == null) {
      schemaIndex.put(schema, schemas.size());
      schemas.add(schema);
    }
    long grown = 0;
    int last = chunks.size() - 1;
    if (last < 0 || chunks.get(last).length - used.get(last) < scratch.length) {
      int size = chunks.isEmpty() ? FIRST_CHUNK : Math.min(MAX_CHUNK, chunks.get(last).length * 2);
      chunks.add(new byte[Math.max(size, scratch.length)]);
      used.add(0);
      last++;
      grown = chunks.get(last).length + CHUNK_OVERHEAD;
      allocated += grown;
    }
    byte[] chunk = chunks.get(last);
    int at = used.get(last);
    System.arraycopy(scratch.bytes, 0, chunk, at, scratch.length);
    used.set(last, at + scratch.length);
    rows++;
    return grown;
  }

  int size() {
    return rows;
  }

  /** The heap the chunks take. */
  long allocated() {
    return allocated;
  }

  /** Reads the rows back in order; each call starts from the first row. */
  Reader reader() {
    return new Reader();
  }

  /** Reads rows one after another. */
  final class Reader {
    private int chunk;
    private RowCodec.Source source =
        chunks.isEmpty() ? null : new RowCodec.Source(chunks.get(0), 0);

    Struct next() {
      if (source.position() >= used.get(chunk)) {
        chunk++;
        source = new RowCodec.Source(chunks.get(chunk), 0);
      }
      Schema schema = schemas.get((int) source.readVarLong());
      return RowCodec.readStruct(source, schema);
    }
  }
}
