package io.skippr.connect.lake.storage;

import java.io.Closeable;
import java.io.IOException;
import java.util.Collection;
import java.util.List;

/**
 * The lake's object store: the only place that knows about files or buckets.
 *
 * <p>Keys are {@code /}-separated strings relative to the store's root, without a leading or
 * trailing {@code /} and without empty, {@code .} or {@code ..} segments (see {@link StorageKeys}).
 * Implementations are safe for use by one thread at a time per instance; different instances (and
 * processes) may work on the same root concurrently, which is why {@link #createIfAbsent} must be
 * atomic.
 */
public interface LakeStorage extends Closeable {

  /**
   * Creates a small object only if no object exists under {@code key}, atomically: of several
   * concurrent callers exactly one succeeds, and readers see either nothing or the whole content.
   *
   * @return true when this call created the object, false when it existed already
   */
  boolean createIfAbsent(String key, byte[] content) throws IOException;

  /**
   * Starts writing an object that becomes visible under {@code key} only when {@link
   * PendingObject#complete()} returns, replacing any object of that key. Until then readers and
   * {@link #list} do not see it; {@link PendingObject#abort()} discards it.
   */
  PendingObject create(String key) throws IOException;

  /**
   * Reads a whole object.
   *
   * @throws java.nio.file.NoSuchFileException when no object exists under {@code key}
   */
  byte[] read(String key) throws IOException;

  /** Keys of the complete objects whose key starts with {@code prefix}, sorted ascending. */
  List<String> list(String prefix) throws IOException;

  /**
   * Keys that unfinished writes under {@code prefix} were going to create (for example left by a
   * crashed process), sorted ascending, each once.
   */
  List<String> listIncomplete(String prefix) throws IOException;

  /** Discards every unfinished write that was going to create {@code key}. */
  void discardIncomplete(String key) throws IOException;

  /** Deletes an object; deleting a missing object is not an error. */
  void delete(String key) throws IOException;

  /**
   * Deletes several objects, as {@link #delete} does each; stores that can delete many in one
   * request (S3's DeleteObjects) do.
   */
  default void deleteAll(Collection<String> keys) throws IOException {
    for (String key : keys) {
      delete(key);
    }
  }

  boolean exists(String key) throws IOException;

  /**
   * Moves a complete object to another key, replacing any object there. The content is under {@code
   * to} before it is gone from {@code from}: local storage renames atomically, S3 copies, then
   * deletes. Moving an object that was moved already fails like a missing one, so a caller
   * repeating a move after a crash can tell.
   *
   * @throws java.nio.file.NoSuchFileException when no object exists under {@code from}
   */
  void move(String from, String to) throws IOException;

  /** Where the store lives, for messages (a path or URI, never credentials). */
  String location();

  @Override
  default void close() throws IOException {}
}
