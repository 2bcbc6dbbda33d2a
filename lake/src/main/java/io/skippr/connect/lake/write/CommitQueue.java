package io.skippr.connect.lake.write;

import io.skippr.connect.common.MdcThreadFactory;
import io.skippr.connect.lake.buffer.UnitBuffer;
import io.skippr.connect.lake.log.LogEntry;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * The units in flight and the thread that commits them: the one way a cut unit reaches the lake.
 * Its intent was appended on the task's thread; its files and commit are written on this queue's
 * thread while the task buffers on. Writing inside put ({@code write.async=false}) is the same
 * queue: submit, then wait. Units of different TPs queue up (written in the order they were cut),
 * so cutting one TP never waits for another's unit; a TP has at most one unit in flight (its state
 * machine knows it), so its log keeps its order. A unit's bytes count against the budget until it
 * is taken off the queue.
 */
final class CommitQueue implements AutoCloseable {
  /**
   * A unit taken off the queue, written or not.
   *
   * @param tpState the TP it belongs to
   * @param failure why it was not committed, or null
   */
  record Finished(TpStateMachine tpState, Throwable failure) {
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

  private record InFlight(TpStateMachine tpState, UnitBuffer unit, Future<?> done) {}

  private final UnitCommitter committer;
  private final MemoryGovernor memory;
  private final boolean async;
  private final ThreadPoolExecutor thread = TaskThreads.pool("lake-sink-commit", 1);

  /** Units submitted and not taken off, oldest first; one thread writes them in this order. */
  private final Deque<InFlight> inFlight = new ArrayDeque<>();

  CommitQueue(UnitCommitter committer, MemoryGovernor memory, boolean async) {
    this.committer = committer;
    this.memory = memory;
    this.async = async;
  }

  /**
   * Starts writing a unit under its intent; the caller has awaited the TP's unit in flight. Unless
   * units are written in the background, waits for it and returns it finished, with the units
   * before it.
   *
   * @return the units finished: none when written in the background (see {@link #takeDone})
   */
  List<Finished> submit(
      TpStateMachine tpState, UnitBuffer unit, LogEntry.Intent intent, String trigger) {
    tpState.unitInFlight();
    Future<?> done =
        thread.submit(
            MdcThreadFactory.withCallersMdc(
                () -> {
                  committer.write(tpState, unit, intent, trigger);
                  return null;
                }));
    inFlight.addLast(new InFlight(tpState, unit, done));
    return async ? List.of() : awaitUnitOf(tpState);
  }

  /** Takes off the units that are done, oldest first, giving their bytes back; never waits. */
  List<Finished> takeDone() {
    return take(false);
  }

  /** Waits for every unit in flight and takes them all off, oldest first. */
  List<Finished> awaitAll() {
    return take(true);
  }

  /**
   * Waits for the TP's unit in flight, if any, and takes it off with the units cut before it (the
   * queue's thread wrote those first); then those done after it.
   */
  List<Finished> awaitUnitOf(TpStateMachine tpState) {
    List<Finished> finished = new ArrayList<>();
    if (tpState.hasUnitInFlight()) {
      InFlight last;
      do {
        last = inFlight.peekFirst();
        finished.add(awaitOldest());
      } while (last.tpState() != tpState);
    }
    finished.addAll(takeDone());
    return finished;
  }

  private List<Finished> take(boolean wait) {
    List<Finished> finished = new ArrayList<>();
    while (!inFlight.isEmpty() && (wait || inFlight.peekFirst().done().isDone())) {
      finished.add(awaitOldest());
    }
    return finished;
  }

  private Finished awaitOldest() {
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
        // The TP's log belongs to the queue's thread until the unit ends.
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    memory.release(unit.unit());
    unit.tpState().unitLanded();
    return new Finished(unit.tpState(), failure);
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
