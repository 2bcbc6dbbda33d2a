package io.skippr.connect.cli.sync;

import java.util.concurrent.atomic.AtomicReference;

/** The first thing that failed a run, from whichever thread noticed it; the run reports it. */
final class SyncFailure {
  private final AtomicReference<String> reason = new AtomicReference<>();

  /** Records the reason unless one was recorded before. */
  void fail(String why) {
    reason.compareAndSet(null, why);
  }

  boolean failed() {
    return reason.get() != null;
  }

  /** Throws the first failure, if any, for the run to report. */
  void throwIfFailed() {
    String why = reason.get();
    if (why != null) {
      throw new SyncException(why);
    }
  }
}
