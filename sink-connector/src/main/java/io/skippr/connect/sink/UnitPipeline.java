package io.skippr.connect.sink;

import io.skippr.connect.sink.buffer.UnitBuffer;
import io.skippr.connect.sink.log.LogEntry;
import java.io.IOException;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * The one way a cut unit reaches the lake. Its intent was appended on the task's thread; its files
 * and commit are written on the pipeline's own thread while the task buffers on. Writing inside put
 * ({@code write.async=false}) is the same pipeline: submit, then wait. One unit is in flight at a
 * time, so every TP log keeps its order, and a unit's bytes count against the budget until it
 * settles.
 */
final class UnitPipeline implements AutoCloseable {
  /**
   * A unit that finished.
   *
   * @param session the TP it belongs to
   * @param failure why it was not committed, or null
   */
  record Settled(TpSession session, Throwable failure) {
    /** Throws the failure, if any, as it was thrown. */
    void rethrow() throws IOException {
      if (failure instanceof IOException io) {
        throw io;
      } else if (failure instanceof RuntimeException runtime) {
        throw runtime;
      } else if (failure instanceof Error error) {
        throw error;
      } else if (failure != null) {
        throw new IOException(failure);
      }
    }
  }

  private record InFlight(
      TpSession session, UnitBuffer unit, OptionalLong committedBefore, Future<?> done) {}

  private final UnitCommitter committer;
  private final MemoryGovernor memory;
  private final boolean async;
  private final ThreadPoolExecutor thread = TaskThreads.pool("lake-sink-commit", 1);
  private InFlight inFlight;

  UnitPipeline(UnitCommitter committer, MemoryGovernor memory, boolean async) {
    this.committer = committer;
    this.memory = memory;
    this.async = async;
  }

  /**
   * Starts writing a unit under its intent; the caller has settled the unit in flight. Unless units
   * are written in the background, waits for it and returns it settled.
   *
   * @return the settled unit when written in place, else null (see {@link #settle})
   */
  Settled submit(TpSession session, UnitBuffer unit, LogEntry.Intent intent, String trigger) {
    if (inFlight != null) {
      throw new IllegalStateException("a unit of " + inFlight.session().tp + " is in flight");
    }
    Future<?> done =
        thread.submit(
            TaskThreads.withCallersMdc(
                () -> {
                  committer.write(session, unit, intent, trigger);
                  return null;
                }));
    inFlight = new InFlight(session, unit, session.committedEnd(), done);
    return async ? null : settle(true);
  }

  /**
   * The TP's last committed offset as the task's thread may read it now: while a unit of the TP is
   * in flight its log belongs to the pipeline's thread, so the offset from before that unit is
   * given.
   */
  OptionalLong committedEnd(TpSession session) {
    InFlight unit = inFlight;
    return unit != null && unit.session() == session
        ? unit.committedBefore()
        : session.committedEnd();
  }

  /**
   * Ends the unit in flight and gives its bytes back: waits for it when {@code wait}, else only if
   * it is done. Returns it once settled, null when none was in flight or it is still running.
   */
  Settled settle(boolean wait) {
    InFlight unit = inFlight;
    if (unit == null || (!wait && !unit.done().isDone())) {
      return null;
    }
    inFlight = null;
    boolean interrupted = false;
    Throwable failure = null;
    while (true) {
      try {
        unit.done().get();
        break;
      } catch (ExecutionException e) {
        failure = e.getCause();
        break;
      } catch (InterruptedException e) {
        // The TP's log belongs to the pipeline's thread until the unit ends.
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    memory.release(unit.unit());
    return new Settled(unit.session(), failure);
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
