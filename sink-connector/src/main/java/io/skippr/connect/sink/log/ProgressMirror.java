package io.skippr.connect.sink.log;

import java.util.Optional;

/**
 * A copy of sink progress kept outside the lake (the state store), so that a TP whose log is gone
 * can still resume. The lake log stays the truth: the mirror is read only when the log has no
 * commit, and a failing mirror never fails a commit.
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
      };

  /** The newest progress mirrored for a TP. */
  Optional<SinkProgress> lookup(String topic, int partition);

  /** Mirrors progress after a commit. */
  void record(SinkProgress progress);
}
