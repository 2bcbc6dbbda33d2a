package io.skippr.connect.lake.storage;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;

/**
 * An object being written. Nothing is visible under its key until {@link #complete()} returns;
 * closing without completing aborts.
 */
public interface PendingObject extends Closeable {

  /** The key the object becomes visible under. */
  String key();

  /** Where to write the content; callers must not close it. */
  OutputStream stream();

  /** Makes the content durable and visible under {@link #key()}, replacing any older object. */
  void complete() throws IOException;

  /** Discards what was written. Idempotent; a no-op after {@link #complete()}. */
  void abort();

  @Override
  default void close() {
    abort();
  }
}
