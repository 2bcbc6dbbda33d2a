package io.skippr.connect.lake.write;

import io.skippr.connect.common.Messages;
import io.skippr.connect.lake.log.FencedException;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import java.util.List;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts TPs' units and hands them to the {@link CommitQueue} (the only code that talks to it): the
 * TP's state machine appends the intent on the task's thread, the queue writes the unit. Finishes
 * or abandons a replay, and takes finished units off the queue with what their failures mean: a
 * fenced TP is dropped, a storage failure fails the task, and a closing TP's failure is left to its
 * next owner.
 */
final class UnitCutter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(UnitCutter.class);

  /** A step for one TP. */
  @FunctionalInterface
  interface LakeAction {
    void run() throws IOException;
  }

  private final UnitCommitter committer;
  private final CommitQueue queue;
  private final MemoryGovernor memory;
  private final LakeStorage storage;
  private final String configFingerprint;

  UnitCutter(
      UnitCommitter committer,
      MemoryGovernor memory,
      LakeStorage storage,
      WriterSettings settings) {
    this.committer = committer;
    this.memory = memory;
    this.storage = storage;
    this.configFingerprint = settings.configFingerprint();
    this.queue = new CommitQueue(committer, memory, settings.writeAsync());
  }

  /** The file a unit of {@code compactionId} writes for a table partition path. */
  String fileKey(String table, String partitionPath, String compactionId) {
    return committer.fileKey(table, partitionPath, compactionId);
  }

  /**
   * Cuts the TP's unit: awaits the TP's unit in flight (so its intents stay in order; other TPs'
   * units go on), appends the intent and submits the unit.
   */
  void cut(TpStateMachine tpState, String trigger) throws IOException {
    if (tpState.unit().isEmpty()) {
      return;
    }
    handOver(queue.awaitUnitOf(tpState), tpState);
    LogEntry.Intent intent =
        tpState.appendIntent(
            configFingerprint,
            (path, id) -> committer.fileKey(path.table(), path.partitionPath(), id));
    handOver(queue.submit(tpState, tpState.takeUnit(), intent, trigger), tpState);
  }

  /**
   * Before a new generation starts: a pending replay cannot be read again and is abandoned; what
   * the TP buffered of the old generation is cut, and committed before this returns.
   */
  void cutNow(TpStateMachine tpState, String trigger) throws IOException {
    handOver(queue.awaitUnitOf(tpState), tpState);
    if (tpState.replay() != null) {
      tpState.abandonReplay("its records are no longer in Kafka");
    }
    cut(tpState, trigger);
    handOver(queue.awaitUnitOf(tpState), tpState);
  }

  /** Commits the replayed unit under its pending intent, and waits for it. */
  void finishReplay(TpStateMachine tpState) throws IOException {
    handOver(queue.awaitUnitOf(tpState), tpState);
    LogEntry.Intent intent = tpState.replayed();
    handOver(queue.submit(tpState, tpState.takeUnit(), intent, "replay"), tpState);
    handOver(queue.awaitUnitOf(tpState), tpState);
    LOG.info("Replayed unit {} of {}", intent.id(), tpState.tp);
  }

  /** Takes the units that are done off the queue, never waiting; whether there were any. */
  boolean takeDone() {
    return handOverAll(queue.takeDone());
  }

  /** Waits until no unit is in flight; whether there were any. */
  boolean awaitAll() {
    return handOverAll(queue.awaitAll());
  }

  /** Runs a step for one TP: a fenced TP is dropped, a storage failure fails the task. */
  void guarded(TpStateMachine tpState, LakeAction action) {
    try {
      action.run();
    } catch (FencedException e) {
      LOG.warn("{}; dropping its buffered records", e.getMessage());
      memory.release(tpState.fenced());
    } catch (IOException e) {
      throw new ConnectException(
          "Lake storage failed for "
              + tpState.tp
              + " in "
              + storage.location()
              + ": "
              + Messages.oneLine(e),
          e);
    }
  }

  /** Stops the threads that write units and files. */
  @Override
  public void close() {
    queue.close();
    committer.close();
  }

  private boolean handOverAll(List<CommitQueue.Finished> finished) {
    finished.forEach(this::handOver);
    return !finished.isEmpty();
  }

  /** A finished unit's failure goes to its own TP's guard; a closing TP's is left to its owner. */
  private void handOver(CommitQueue.Finished finished) {
    if (finished == null || finished.failure() == null) {
      return;
    }
    TpStateMachine owner = finished.tpState();
    if (owner.phase() == TpPhase.CLOSING) {
      LOG.warn(
          "The last unit of {} was not committed ({}); its next owner reads it again",
          owner.tp,
          finished.failure().toString());
    } else {
      guarded(owner, finished::rethrow);
    }
  }

  /**
   * As {@link #handOver(CommitQueue.Finished)}, but the caller's own failure is thrown to it, after
   * the other units' failures went to their TPs.
   */
  private void handOver(List<CommitQueue.Finished> finished, TpStateMachine caller)
      throws IOException {
    CommitQueue.Finished own = null;
    for (CommitQueue.Finished unit : finished) {
      if (unit.tpState() == caller && caller.isOpen()) {
        own = unit;
      } else {
        handOver(unit);
      }
    }
    if (own != null) {
      own.rethrow();
    }
  }
}
