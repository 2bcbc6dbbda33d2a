package io.skippr.connect.state.api;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * One stored row: the value bytes, their version (1 after the first write, bumped by every write),
 * the hex SHA-256 of the stored bytes, and when it was last written.
 *
 * <p>{@link #toString()} never shows the value: rows may hold secrets.
 */
public final class StateEntry {
  private final StateKey key;
  private final byte[] value;
  private final long version;
  private final String sha256;
  private final Instant updatedAt;

  public StateEntry(StateKey key, byte[] value, long version, String sha256, Instant updatedAt) {
    this.key = Objects.requireNonNull(key, "key");
    this.value = Objects.requireNonNull(value, "value").clone();
    if (version < 1) {
      throw new IllegalArgumentException("a stored row has version >= 1, got " + version);
    }
    this.version = version;
    this.sha256 = Objects.requireNonNull(sha256, "sha256");
    this.updatedAt = Objects.requireNonNull(updatedAt, "updatedAt");
  }

  public StateKey key() {
    return key;
  }

  /** A copy of the value bytes. */
  public byte[] value() {
    return value.clone();
  }

  public long version() {
    return version;
  }

  /** Hex SHA-256 of the bytes as stored (for secrets: of the encrypted blob). */
  public String sha256() {
    return sha256;
  }

  public Instant updatedAt() {
    return updatedAt;
  }

  /** The same row with other value bytes (used when decrypting secrets). */
  public StateEntry withValue(byte[] newValue) {
    return new StateEntry(key, newValue, version, sha256, updatedAt);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StateEntry other
        && key.equals(other.key)
        && Arrays.equals(value, other.value)
        && version == other.version
        && sha256.equals(other.sha256)
        && updatedAt.equals(other.updatedAt);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, version, sha256);
  }

  @Override
  public String toString() {
    return "StateEntry["
        + key
        + ", version="
        + version
        + ", "
        + value.length
        + " bytes, updatedAt="
        + updatedAt
        + "]";
  }
}
