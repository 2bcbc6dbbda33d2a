package io.skippr.connect.lake.log;

import java.util.Optional;

/**
 * A copy of sink progress kept outside the lake (the state store), so that a TP whose log is gone
 * can still resume. The lake log stays the truth: the mirror is read only when the log does not say
 * where the TP resumes, only a row of the same lake is used, and a failing mirror never fails a
 * commit.
 */
public interface ProgressMirror {

  /** A mirror that remembers nothing. */
  ProgressMirror NONE =
      new ProgressMirror() {
        @Override
        public Optional<SinkProgress> lookup(String topic, int partition) {
          return Optional.empty();
        }

        @Override
        public void record(SinkProgress progress) {}

        @Override
        public void forget(String topic, int partition) {}
      };

  /** The newest progress mirrored for a TP, of whichever lake wrote it. */
  Optional<SinkProgress> lookup(String topic, int partition);

  /**
   * Mirrors progress after a commit. Never moves a row of the same lake backwards; replaces a row
   * of another lake.
   */
  void record(SinkProgress progress);

  /** Drops a TP's row (it belongs to another lake, or the TP was reset). */
  void forget(String topic, int partition);
}
