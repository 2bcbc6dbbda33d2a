package io.skippr.connect.sink;

import io.skippr.connect.sink.buffer.UnitBuffer;
import java.io.IOException;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * Commits one cut unit at a time on a thread of its own, so the task buffers the next records while
 * the unit's files are encoded and stored. Only one unit is ever in flight per task: the next
 * intent of any TP is appended after the previous unit settled, so every TP log keeps its order and
 * the task's memory stays within its budget. Used by the task's thread only.
 */
final class BackgroundCommit implements AutoCloseable {
  /** The unit's work: write its files and append its commit. */
  @FunctionalInterface
  interface Work {
    void run() throws IOException;
  }

  /**
   * A settled unit.
   *
   * @param writer the TP it belongs to
   * @param unit its rows, detached from the TP
   * @param failure why it was not committed, or null
   */
  record Settled(TpWriter writer, UnitBuffer unit, Throwable failure) {
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
      TpWriter writer, UnitBuffer unit, OptionalLong committedBefore, Future<?> done) {}

  private final ThreadPoolExecutor thread = TaskThreads.pool("lake-sink-commit", 1);
  private InFlight inFlight;

  /** Starts the unit's work; the caller has settled the previous unit. */
  void submit(TpWriter writer, UnitBuffer unit, Work work) {
    if (inFlight != null) {
      throw new IllegalStateException("a unit of " + inFlight.writer().tp + " is in flight");
    }
    Future<?> done =
        thread.submit(
            TaskThreads.withCallersMdc(
                () -> {
                  work.run();
                  return null;
                }));
    inFlight = new InFlight(writer, unit, writer.committedEnd(), done);
  }

  /**
   * The TP's last committed offset as the task's thread may read it now: while a unit of the TP is
   * in flight its log belongs to the commit thread, so the offset from before that unit is given.
   */
  OptionalLong committedEnd(TpWriter writer) {
    InFlight unit = inFlight;
    return unit != null && unit.writer() == writer ? unit.committedBefore() : writer.committedEnd();
  }

  /**
   * Ends the unit in flight: waits for it when {@code wait}, else only if it is done. Returns it
   * once settled, null when none was in flight or it is still running.
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
        // The TP's log belongs to the commit thread until the unit ends.
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return new Settled(unit.writer(), unit.unit(), failure);
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
