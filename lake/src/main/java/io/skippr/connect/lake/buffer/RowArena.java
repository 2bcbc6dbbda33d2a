package io.skippr.connect.lake.buffer;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * The compacted rows of one unit, of all its partition paths, as bytes ({@link RowCodec}) in shared
 * 64 KiB chunks: a third to a quarter of the heap the rows take as objects, with no slack per
 * partition path, so a thousand paths hold as many rows as one. A row is addressed by an int (chunk
 * and offset) and never spans two chunks. Filled by the task's thread; read, once the unit is cut,
 * by the threads that write its files.
 */
final class RowArena {
  private static final int CHUNK = 1 << 16;

  /** Positions are {@code chunk << 16 | offset} in a non-negative int. */
  private static final int MAX_CHUNKS = 1 << 15;

  /** What a chunk costs besides its bytes (array header, list slot). */
  private static final int CHUNK_OVERHEAD = 24;

  private final List<byte[]> chunks = new ArrayList<>();
  private final List<Schema> schemas = new ArrayList<>();
  private final Map<Schema, Integer> schemaIndex = new IdentityHashMap<>();
  private final RowCodec.Sink scratch = new RowCodec.Sink();
  private int used = CHUNK;

  /** The bytes the arena grew by at its last {@link #add}. */
  private long grown;

  /**
   * Adds a row.
   *
   * @return where it is, or -1 when it holds a value the codec does not know (nothing was added)
   */
  int add(Struct row) {
    grown = 0;
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
    int length = scratch.length;
    if (length > CHUNK - used) {
      if (chunks.size() >= MAX_CHUNKS) {
        return -1; // 2 GiB of compacted rows in one unit: the rest stay objects
      }
      // A row larger than a chunk gets one of its own, followed by a fresh chunk.
      chunks.add(new byte[Math.max(CHUNK, length)]);
      used = 0;
      grown = Math.max(CHUNK, length) + CHUNK_OVERHEAD;
    }
    int chunk = chunks.size() - 1;
    System.arraycopy(scratch.bytes, 0, chunks.get(chunk), used, length);
    int at = (chunk << 16) | used;
    used = length > CHUNK - used ? CHUNK : used + length;
    return at;
  }

  /** The bytes the last {@link #add} allocated. */
  long grown() {
    return grown;
  }

  /** Reads the row at {@code at}, as {@link #add} returned it. */
  Struct read(int at) {
    RowCodec.Source source = new RowCodec.Source(chunks.get(at >>> 16), at & 0xFFFF);
    Schema schema = schemas.get((int) source.readVarLong());
    return RowCodec.readStruct(source, schema);
  }
}
