package io.skippr.connect.source.lineprotocol;

import java.util.Arrays;

/**
 * Reuses the strings of names that repeat from line to line (measurements, tag keys and values,
 * field keys), so a parser kept per thread allocates them once. Direct-mapped: a colliding name
 * replaces the older one.
 */
final class NameCache {

  /** Longer names are not cached. */
  static final int MAX_NAME_BYTES = 64;

  private static final int SLOTS = 2048;

  private final byte[][] keys = new byte[SLOTS][];
  private final String[] names = new String[SLOTS];

  /** The cached name for {@code bytes[0, n)}, or null. */
  String get(byte[] bytes, int n) {
    int slot = slot(bytes, n);
    byte[] key = keys[slot];
    return key != null && Arrays.equals(key, 0, key.length, bytes, 0, n) ? names[slot] : null;
  }

  void put(byte[] bytes, int n, String name) {
    int slot = slot(bytes, n);
    keys[slot] = Arrays.copyOf(bytes, n);
    names[slot] = name;
  }

  private static int slot(byte[] bytes, int n) {
    int h = n;
    for (int i = 0; i < n; i++) {
      h = 31 * h + bytes[i];
    }
    return (h ^ (h >>> 16)) & (SLOTS - 1);
  }
}
