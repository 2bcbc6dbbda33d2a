package io.skippr.connect.lake.buffer;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;

/**
 * The records of one TP since its last unit: the offset range they span and their rows grouped by
 * (table, partition path). Records that produced no row (skipped, rejected) still extend the range.
 */
public final class UnitBuffer {
  private final Map<String, PathBuffer> paths = new LinkedHashMap<>();
  private PathBuffer last;

  /** Where this unit's compacted rows live; null until the first compaction. */
  private RowArena arena;

  private long wallclockMs;
  private boolean begun;
  private long start = -1;
  private long end = -1;
  private long records;
  private long rows;
  private long bytes;
  private long minTimestamp = Long.MAX_VALUE;
  private long maxTimestamp = Long.MIN_VALUE;
  private boolean released;

  /** Fixes the unit's wall-clock instant; a no-op when the unit has begun already. */
  public void begin(long unitWallclockMs) {
    if (!begun) {
      begun = true;
      wallclockMs = unitWallclockMs;
    }
  }

  public boolean begun() {
    return begun;
  }

  /**
   * Buffers a row under its table partition path.
   *
   * @return false (buffering nothing) when the row's schema cannot join that path's rows
   */
  public boolean add(
      String table, String partitionPath, Struct row, long estimatedBytes, SchemaMerge merge) {
    PathBuffer path = last;
    // Rows of a TP mostly go where the previous one went: no key to build and hash then.
    if (path == null
        || !path.partitionPath().equals(partitionPath)
        || !path.table().equals(table)) {
      String key = table + '\0' + partitionPath;
      path = paths.get(key);
      if (path == null) {
        path = new PathBuffer(table, partitionPath, row.schema());
        paths.put(key, path);
      }
      last = path;
    }
    if (!path.add(row, estimatedBytes, merge)) {
      return false;
    }
    rows++;
    bytes += estimatedBytes;
    return true;
  }

  /**
   * Turns the rows this unit holds as objects into compact bytes (see {@link PathBuffer#compact}).
   *
   * @return the bytes this freed
   */
  public long compact() {
    if (arena == null) {
      arena = new RowArena();
    }
    long freed = 0;
    for (PathBuffer path : paths.values()) {
      freed += path.compact(arena);
    }
    bytes -= freed;
    return freed;
  }

  /** The estimated bytes of the rows this unit holds as objects, which {@link #compact} frees. */
  public long objectBytes() {
    long objects = 0;
    for (PathBuffer path : paths.values()) {
      objects += path.objectBytes();
    }
    return objects;
  }

  /** Counts a delivered record (with or without a row) into the unit's range. */
  public void noteRecord(long offset, Long timestamp) {
    if (records == 0) {
      start = offset;
    }
    end = offset;
    records++;
    if (timestamp != null) {
      minTimestamp = Math.min(minTimestamp, timestamp);
      maxTimestamp = Math.max(maxTimestamp, timestamp);
    }
  }

  /** True when no record was delivered into this unit. */
  public boolean isEmpty() {
    return records == 0;
  }

  /** The wall-clock instant fixed by {@link #begin}. */
  public long wallclockMs() {
    return wallclockMs;
  }

  public long start() {
    return start;
  }

  public long end() {
    return end;
  }

  public long records() {
    return records;
  }

  public long rows() {
    return rows;
  }

  public long bytes() {
    return bytes;
  }

  /** The span of record timestamps if {@code timestamp} joined, 0 when unknown. */
  long timeSpanWith(Long timestamp) {
    if (timestamp == null || minTimestamp == Long.MAX_VALUE) {
      return 0;
    }
    return Math.max(maxTimestamp, timestamp) - Math.min(minTimestamp, timestamp);
  }

  /**
   * Marks the unit's bytes as given back to the budget; true only the first time, so a unit is
   * never released twice.
   */
  public boolean release() {
    boolean first = !released;
    released = true;
    return first;
  }

  public Collection<PathBuffer> paths() {
    return Collections.unmodifiableCollection(paths.values());
  }
}
