package io.skippr.connect.lake.write;

import io.skippr.connect.common.MdcThreadFactory;
import io.skippr.connect.lake.buffer.UnitBuffer;
import io.skippr.connect.lake.log.LogEntry;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * The one way a cut unit reaches the lake. Its intent was appended on the task's thread; its files
 * and commit are written on the pipeline's own thread while the task buffers on. Writing inside put
 * ({@code write.async=false}) is the same pipeline: submit, then wait. Units of different TPs queue
 * up (the pipeline's thread writes them in the order they were cut), so cutting one TP never waits
 * for another's unit; a TP has at most one unit in flight, so its log keeps its order. A unit's
 * bytes count against the budget until it settles.
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

  /** Units submitted and not settled, oldest first; one thread writes them in this order. */
  private final Deque<InFlight> inFlight = new ArrayDeque<>();

  UnitPipeline(UnitCommitter committer, MemoryGovernor memory, boolean async) {
    this.committer = committer;
    this.memory = memory;
    this.async = async;
  }

  /**
   * Starts writing a unit under its intent; the caller has settled the TP's unit in flight. Unless
   * units are written in the background, waits for it and returns it settled, with the units before
   * it.
   *
   * @return the units settled: none when written in the background (see {@link #settle})
   */
  List<Settled> submit(TpSession session, UnitBuffer unit, LogEntry.Intent intent, String trigger) {
    if (of(session) != null) {
      throw new IllegalStateException("a unit of " + session.tp + " is in flight");
    }
    Future<?> done =
        thread.submit(
            MdcThreadFactory.withCallersMdc(
                () -> {
                  committer.write(session, unit, intent, trigger);
                  return null;
                }));
    inFlight.addLast(new InFlight(session, unit, session.committedEnd(), done));
    return async ? List.of() : settle(session);
  }

  /**
   * The TP's last committed offset as the task's thread may read it now: while a unit of the TP is
   * in flight its log belongs to the pipeline's thread, so the offset from before that unit is
   * given.
   */
  OptionalLong committedEnd(TpSession session) {
    InFlight unit = of(session);
    return unit != null ? unit.committedBefore() : session.committedEnd();
  }

  /** Whether a unit of the TP is in flight. */
  boolean inFlight(TpSession session) {
    return of(session) != null;
  }

  /**
   * Settles the units that are done, oldest first, giving their bytes back; with {@code wait},
   * waits for every unit in flight.
   */
  List<Settled> settle(boolean wait) {
    List<Settled> settled = new ArrayList<>();
    while (!inFlight.isEmpty() && (wait || inFlight.peekFirst().done().isDone())) {
      settled.add(settleOldest());
    }
    return settled;
  }

  /**
   * Waits for the TP's unit in flight, if any, and settles it with the units cut before it (the
   * pipeline's thread wrote those first); then those done after it.
   */
  List<Settled> settle(TpSession session) {
    List<Settled> settled = new ArrayList<>();
    if (of(session) != null) {
      InFlight last;
      do {
        last = inFlight.peekFirst();
        settled.add(settleOldest());
      } while (last.session() != session);
    }
    settled.addAll(settle(false));
    return settled;
  }

  private Settled settleOldest() {
    InFlight unit = inFlight.removeFirst();
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

  private InFlight of(TpSession session) {
    for (InFlight unit : inFlight) {
      if (unit.session() == session) {
        return unit;
      }
    }
    return null;
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
