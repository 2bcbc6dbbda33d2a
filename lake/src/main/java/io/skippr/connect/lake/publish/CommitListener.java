package io.skippr.connect.lake.publish;

import org.apache.kafka.common.TopicPartition;

/**
 * Told of every change to the lake's live files, in each TP's log order, so that another catalog
 * (an Iceberg table) can follow the lake. The lake log stays the truth: a listener may lag, and
 * whatever it missed (a crash between a lake commit and its event, a lost event) it finds again in
 * {@link #opened} when the next owner of the TP opens it.
 *
 * <p>Events of one TP arrive in order; a listener must return quickly (queue the work) and never
 * throw for a failure of its own catalog: the writer logs what it throws and goes on, because the
 * lake commit has happened already.
 */
public interface CommitListener extends AutoCloseable {

  /** A listener that does nothing. */
  CommitListener NONE =
      new CommitListener() {
        @Override
        public void opened(OpenedTp tp) {}

        @Override
        public void committed(UnitCommitted unit) {}

        @Override
        public void replaced(FilesReplaced replaced) {}

        @Override
        public void expired(FilesExpired expired) {}
      };

  /**
   * This writer claimed the TP and recovered it; called on the task's thread before any record of
   * the TP is written. {@code tp.liveFiles()} is everything the lake lists as live for the TP, so
   * the listener registers what the last owner committed but did not register.
   */
  void opened(OpenedTp tp);

  /** A unit's commit entry was appended: its files are live. Called right after the append. */
  void committed(UnitCommitted unit);

  /** A compaction's commit entry retired its input files and made its output live. */
  void replaced(FilesReplaced replaced);

  /** Retention removed live files from the lake. */
  void expired(FilesExpired expired);

  /**
   * The writer no longer owns the TP (closed or fenced). Queued events of the TP may still be
   * delivered: a newer owner of the TP fences them off.
   */
  default void closed(TopicPartition tp) {}

  /** The writer stops: deliver what is queued within a short bound, then release resources. */
  @Override
  default void close() {}
}
