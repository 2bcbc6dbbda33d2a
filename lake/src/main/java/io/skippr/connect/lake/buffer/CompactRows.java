package io.skippr.connect.lake.buffer;

import java.util.Arrays;
import org.apache.kafka.connect.data.Struct;

/**
 * The compacted rows of one partition path: where each is in its unit's {@link RowArena}, in the
 * order they were added.
 */
final class CompactRows {
  /** What an instance costs besides its positions. */
  static final int OVERHEAD = 48;

  private final RowArena arena;
  private int[] positions = new int[16];
  private int rows;

  CompactRows(RowArena arena) {
    this.arena = arena;
  }

  /**
   * Adds a row.
   *
   * @return the bytes this grew by (the arena's and its own), or -1 when the row holds a value the
   *     codec does not know (nothing was added)
   */
  long add(Struct row) {
    int at = arena.add(row);
    if (at < 0) {
      return -1;
    }
    long grown = arena.grown();
    if (rows == positions.length) {
      grown += 4L * positions.length;
      positions = Arrays.copyOf(positions, positions.length * 2);
    }
    positions[rows++] = at;
    return grown;
  }

  int size() {
    return rows;
  }

  /** The row at {@code index}, read back from its bytes. */
  Struct get(int index) {
    return arena.read(positions[index]);
  }
}
