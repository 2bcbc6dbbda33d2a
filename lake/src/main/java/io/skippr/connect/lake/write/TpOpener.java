package io.skippr.connect.lake.write;

import io.skippr.connect.lake.log.CommittedUnit;
import io.skippr.connect.lake.log.LakeIdentity;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.OrphanSweeper;
import io.skippr.connect.lake.log.RecoveredTp;
import io.skippr.connect.lake.log.SinkProgress;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.log.TpRecovery;
import io.skippr.connect.lake.metrics.LakeSinkMetrics;
import io.skippr.connect.lake.publish.CommitListener;
import io.skippr.connect.lake.publish.OpenedTp;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens TPs for a task: recovers each log (new epoch, pending intent, orphans), decides where the
 * TP resumes, and gives a mirror that lost the TP's progress its row back. Remembers where each TP
 * this task closed must resume if it comes back with nothing more in its log: a consumer keeps its
 * fetch position for partitions that stay assigned across an eager rebalance, so without an
 * explicit seek the records the task had buffered (and dropped) would be skipped.
 */
final class TpOpener {
  private static final Logger LOG = LoggerFactory.getLogger(TpOpener.class);

  private final WriterParts parts;
  private final LakeIdentity lake;
  private final OrphanSweeper sweeper;
  private final TpRecovery recovery;
  private final CommitListener listener;
  private final Map<TopicPartition, Long> resumeAfterClose = new HashMap<>();

  TpOpener(
      WriterParts parts,
      LakeLayout layout,
      LakeIdentity lake,
      WriterSettings settings,
      CommitListener listener) {
    this.parts = parts;
    this.listener = listener;
    this.lake = lake;
    this.sweeper = new OrphanSweeper(parts.storage(), layout);
    this.recovery =
        new TpRecovery(
            parts.storage(),
            layout,
            lake,
            parts.mirror(),
            settings.configFingerprint(),
            settings.owner());
  }

  /**
   * The TP's state machine, resuming where its log (or the mirror) says, else where this task
   * dropped its records when it last closed the TP.
   *
   * @throws io.skippr.connect.lake.log.LogFormatException when the log has an unknown format
   */
  TpStateMachine open(TopicPartition tp, LakeSinkMetrics metrics) {
    Long dropped = resumeAfterClose.remove(tp);
    RecoveredTp recovered;
    try {
      recovered = recovery.recover(tp.topic(), tp.partition(), parts.clock().millis(), sweeper);
    } catch (IOException e) {
      throw new ConnectException("Cannot open " + tp + " in " + parts.storage().location(), e);
    }
    OptionalLong seek = recovered.seekOffset();
    if (seek.isEmpty() && dropped != null) {
      LOG.info("Resuming {} at {}, the first offset this task dropped uncommitted", tp, dropped);
      seek = OptionalLong.of(dropped);
    }
    rebuildMirror(tp, recovered.log());
    publish(tp, recovered.log());
    LakeSinkMetrics.Tp gauges = metrics.open(tp);
    recovered.log().state().lastCommit().ifPresent(unit -> gauges.committed(unit.end()));
    return new TpStateMachine(tp, recovered.log(), recovered.replay().orElse(null), seek, gauges);
  }

  /** The TP was closed, its unit in flight landed: notes where it resumes if it comes back. */
  void closed(TpStateMachine tpState) {
    tpState.resumeOffset().ifPresent(offset -> resumeAfterClose.put(tpState.tp, offset));
  }

  /** The listener registers what the TP's last owner committed but did not register. */
  private void publish(TopicPartition tp, TpLog log) {
    try {
      listener.opened(
          new OpenedTp(
              tp,
              log.epoch(),
              log.state().lastSeq(),
              List.copyOf(log.state().liveFiles().values())));
    } catch (RuntimeException e) {
      LOG.warn("Could not publish the opening of {}: {}", tp, e.toString());
    }
  }

  /**
   * A mirror that lost this TP's row, or holds one of another lake, gets this lake's back from the
   * lake log, the truth.
   */
  private void rebuildMirror(TopicPartition tp, TpLog log) {
    Optional<CommittedUnit> last = log.state().lastCommit();
    if (last.isEmpty()) {
      return;
    }
    try {
      Optional<SinkProgress> mirrored = parts.mirror().lookup(tp.topic(), tp.partition());
      if (mirrored.isEmpty() || !mirrored.get().belongsTo(lake)) {
        CommittedUnit unit = last.get();
        parts
            .mirror()
            .record(
                new SinkProgress(
                    tp.topic(),
                    tp.partition(),
                    unit.end(),
                    unit.id(),
                    log.epoch(),
                    log.state().lastSeq(),
                    log.state().generation(),
                    lake.id(),
                    lake.location()));
        LOG.info("Rebuilt the mirrored progress of {} from its lake log: {}", tp, unit.id());
      }
    } catch (RuntimeException e) {
      LOG.warn("Could not rebuild the mirrored progress of {}: {}", tp, e.toString());
    }
  }
}
