package io.skippr.connect.source.file.track;

import io.skippr.connect.source.file.scan.FileStat;
import io.skippr.connect.source.file.scan.Head;
import java.io.Closeable;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One identified file (for followed files: one content stream, which may have copies) and how far
 * it has been read. Owned by the task's poll thread.
 */
public final class TrackedFile {

  private FileKey key;
  private final Head head;
  private Head verify;
  private Map<String, Object> partition;
  private volatile FileStat current;
  private final Map<String, FileStat> copies = new LinkedHashMap<>();
  private Phase phase = Phase.RESOLVING;
  private volatile long position;
  private long line;
  private long emittedPosition = -1;
  private boolean unlisted;
  private boolean doubted;
  private long quietSinceMillis;
  private Closeable reading;

  /**
   * @param head the fingerprint the key is made of
   * @param verify the first bytes a copy must share (finished files: the head itself)
   */
  public TrackedFile(FileKey key, Head head, Head verify, FileStat current) {
    this.key = key;
    this.head = head;
    this.verify = verify;
    this.partition = key.partition();
    this.current = current;
  }

  public FileKey key() {
    return key;
  }

  /** Gives the file another identity (a followed file found to differ from its namesake). */
  void rekey(FileKey newKey) {
    this.key = newKey;
    this.partition = newKey.partition();
  }

  public Map<String, Object> partition() {
    return partition;
  }

  public Head head() {
    return head;
  }

  public Head verify() {
    return verify;
  }

  void verify(Head stored) {
    this.verify = stored;
  }

  /** The file being read, or null while a followed stream has no file. */
  public FileStat current() {
    return current;
  }

  void current(FileStat stat) {
    this.current = stat;
  }

  Map<String, FileStat> copies() {
    return copies;
  }

  public Phase phase() {
    return phase;
  }

  /** Moves to {@code next}; an illegal transition is a bug and throws. */
  public void moveTo(Phase next) {
    if (next != phase && !phase.canMoveTo(next)) {
      throw new IllegalStateException(key.id() + ": cannot go from " + phase + " to " + next);
    }
    phase = next;
  }

  /** Byte position of the next record to read. */
  public long position() {
    return position;
  }

  /** Lines consumed up to {@link #position()}. */
  public long line() {
    return line;
  }

  /** Continues at {@code newPosition}, {@code newLine} (after reading, resuming or a reset). */
  public void position(long newPosition, long newLine) {
    this.position = newPosition;
    this.line = newLine;
  }

  /** The position in the offset of the last record sent since reading resumed, or -1. */
  public long emittedPosition() {
    return emittedPosition;
  }

  public void emitted(long atPosition) {
    this.emittedPosition = atPosition;
  }

  /**
   * Marks a followed file whose first bytes no longer matched after a read: the next listing checks
   * its content even when its size and time look unchanged.
   */
  public void doubt() {
    this.doubted = true;
  }

  /** Whether the file was doubted since the last call; clears the mark. */
  boolean takeDoubt() {
    boolean was = doubted;
    doubted = false;
    return was;
  }

  /** True when a followed file's name no longer matches: it is read to its end, then closed. */
  public boolean unlisted() {
    return unlisted;
  }

  void unlisted(boolean value, long nowMillis) {
    this.unlisted = value;
    this.quietSinceMillis = nowMillis;
  }

  public long quietSinceMillis() {
    return quietSinceMillis;
  }

  public void quietSince(long millis) {
    this.quietSinceMillis = millis;
  }

  /** The open reading of this file (made by the reader), or null. */
  public Closeable reading() {
    return reading;
  }

  public void reading(Closeable open) {
    this.reading = open;
  }

  /** Closes the open reading, if any: the next read opens the file again at the position. */
  public void closeReading() {
    Closeable open = reading;
    reading = null;
    if (open != null) {
      try {
        open.close();
      } catch (IOException e) {
        // a read-only handle: nothing is lost when closing it fails
      }
    }
  }

  /** The offset of a record ending at the current position. */
  public FileOffset offset(boolean followed) {
    String path = current != null ? current.relative() : null;
    return followed
        ? new FileOffset(position, line, path, current != null ? current.handle() : null, verify)
        : new FileOffset(position, line, path, null, null);
  }

  @Override
  public String toString() {
    return (current != null ? current.relative() : "(no file)") + " [" + key.id() + "]";
  }
}
