package io.skippr.connect.lake.write;

import io.skippr.connect.common.Messages;
import io.skippr.connect.lake.log.FencedException;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import java.util.List;
import java.util.OptionalLong;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The only code that talks to the {@link UnitPipeline}: cuts a TP's unit (intent on the task's
 * thread, then the pipeline), finishes or abandons a replay, and settles units with what their
 * failures mean: a fenced TP is dropped, a storage failure fails the task, and a closing TP's
 * failure is left to its next owner.
 */
final class UnitFlow implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(UnitFlow.class);

  /** A step for one TP. */
  @FunctionalInterface
  interface LakeAction {
    void run() throws IOException;
  }

  private final UnitCommitter committer;
  private final UnitPipeline pipeline;
  private final MemoryGovernor memory;
  private final LakeStorage storage;

  UnitFlow(UnitCommitter committer, MemoryGovernor memory, LakeStorage storage, boolean async) {
    this.committer = committer;
    this.memory = memory;
    this.storage = storage;
    this.pipeline = new UnitPipeline(committer, memory, async);
  }

  /** The file a unit of {@code compactionId} writes for a table partition path. */
  String fileKey(String table, String partitionPath, String compactionId) {
    return committer.fileKey(table, partitionPath, compactionId);
  }

  /**
   * Cuts the TP's unit: settles the TP's unit in flight (so its intents stay in order; other TPs'
   * units go on), appends the intent and submits the unit.
   */
  void cut(TpSession session, String trigger) throws IOException {
    if (session.unit().isEmpty()) {
      return;
    }
    settle(pipeline.settle(session), session);
    LogEntry.Intent intent = committer.plan(session);
    settle(pipeline.submit(session, session.takeUnit(), intent, trigger), session);
  }

  /**
   * Before a new generation starts: a pending replay cannot be read again and is abandoned; what
   * the TP buffered of the old generation is cut, and committed before this returns.
   */
  void cutNow(TpSession session, String trigger) throws IOException {
    settle(pipeline.settle(session), session);
    if (session.replay() != null) {
      abandonReplay(session, "its records are no longer in Kafka");
    }
    cut(session, trigger);
    settle(pipeline.settle(session), session);
  }

  /** Commits the replayed unit under its pending intent, and waits for it. */
  void finishReplay(TpSession session) throws IOException {
    settle(pipeline.settle(session), session);
    LogEntry.Intent intent = session.replay();
    session.replayed();
    settle(pipeline.submit(session, session.takeUnit(), intent, "replay"), session);
    settle(pipeline.settle(session), session);
    LOG.info("Replayed unit {} of {}", intent.id(), session.tp);
  }

  /** The replay cannot reproduce the intent: give it up and let the unit be planned anew. */
  void abandonReplay(TpSession session, String reason) throws IOException {
    LogEntry.Intent intent = session.replay();
    LOG.warn("Abandoning replay of {}: {}; planning the unit anew", intent.id(), reason);
    session.log.abandon(intent, "replay differs: " + reason);
    session.replayed();
  }

  /**
   * Settles the units in flight that are done (or, with {@code wait}, every one once it is);
   * whether any was settled.
   */
  boolean settle(boolean wait) {
    List<UnitPipeline.Settled> settled = pipeline.settle(wait);
    settled.forEach(this::settle);
    return !settled.isEmpty();
  }

  /** The TP's last committed offset as the task's thread may read it now. */
  OptionalLong committedEnd(TpSession session) {
    return pipeline.committedEnd(session);
  }

  /** Runs a step for one TP: a fenced TP is dropped, a storage failure fails the task. */
  void guarded(TpSession session, LakeAction action) {
    try {
      action.run();
    } catch (FencedException e) {
      LOG.warn("{}; dropping its buffered records", e.getMessage());
      memory.release(session.fenced());
    } catch (IOException e) {
      throw new ConnectException(
          "Lake storage failed for "
              + session.tp
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
    pipeline.close();
    committer.close();
  }

  /** A settled unit's failure goes to its own TP's guard; a closing TP's is left to its owner. */
  private void settle(UnitPipeline.Settled settled) {
    if (settled == null || settled.failure() == null) {
      return;
    }
    TpSession owner = settled.session();
    if (owner.phase() == TpSession.Phase.CLOSING) {
      LOG.warn(
          "The last unit of {} was not committed ({}); its next owner reads it again",
          owner.tp,
          settled.failure().toString());
    } else {
      guarded(owner, settled::rethrow);
    }
  }

  /**
   * As {@link #settle(UnitPipeline.Settled)}, but the caller's own failure is thrown to it, after
   * the other units' failures went to their TPs.
   */
  private void settle(List<UnitPipeline.Settled> settled, TpSession caller) throws IOException {
    UnitPipeline.Settled own = null;
    for (UnitPipeline.Settled unit : settled) {
      if (unit.session() == caller && caller.isOpen()) {
        own = unit;
      } else {
        settle(unit);
      }
    }
    if (own != null) {
      own.rethrow();
    }
  }
}
