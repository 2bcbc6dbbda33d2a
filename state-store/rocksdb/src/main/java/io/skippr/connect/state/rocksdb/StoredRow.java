package io.skippr.connect.state.rocksdb;

import io.skippr.connect.common.Sha256;
import io.skippr.connect.state.api.StateEntry;
import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StateStoreException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * RocksDB's row layout. Key: scope, NUL, {@code kind#id} (UTF-8, so RocksDB's byte order is the
 * same as DynamoDB's sort order). Value: format byte, version, updated-at millis, SHA-256 of the
 * value, value.
 */
final class StoredRow {
  private static final byte FORMAT = 1;
  private static final int HEADER = 1 + 8 + 8 + 32;

  private StoredRow() {}

  static byte[] key(StateKey key) {
    return rowKey(key.scope().encoded(), key.encoded());
  }

  static byte[] rowKey(String scope, String sortKey) {
    return (scope + '\0' + sortKey).getBytes(StandardCharsets.UTF_8);
  }

  /** The sort key part of a stored key. */
  static String sortKey(byte[] storedKey, int scopeBytes) {
    return new String(
        storedKey, scopeBytes + 1, storedKey.length - scopeBytes - 1, StandardCharsets.UTF_8);
  }

  static byte[] encode(byte[] value, long version, byte[] sha256, Instant updatedAt) {
    return ByteBuffer.allocate(HEADER + value.length)
        .put(FORMAT)
        .putLong(version)
        .putLong(updatedAt.toEpochMilli())
        .put(sha256)
        .put(value)
        .array();
  }

  static long version(byte[] stored) {
    return stored == null ? 0 : ByteBuffer.wrap(stored, 1, 8).getLong();
  }

  static StateEntry decode(StateKey key, byte[] stored) {
    if (stored.length < HEADER || stored[0] != FORMAT) {
      throw new StateStoreException("state row " + key + " has an unknown format");
    }
    ByteBuffer buffer = ByteBuffer.wrap(stored);
    buffer.get();
    long version = buffer.getLong();
    Instant updatedAt = Instant.ofEpochMilli(buffer.getLong());
    byte[] sha = new byte[32];
    buffer.get(sha);
    byte[] value = Arrays.copyOfRange(stored, HEADER, stored.length);
    if (!Arrays.equals(sha, Sha256.digest(value))) {
      throw new StateStoreException(
          "state row " + key + " is corrupt: its SHA-256 does not match its value");
    }
    return new StateEntry(key, value, version, HexFormat.of().formatHex(sha), updatedAt);
  }
}
