package io.skippr.connect.sink;

import io.skippr.connect.sink.log.CommittedUnit;
import io.skippr.connect.sink.log.LakeIdentity;
import io.skippr.connect.sink.log.LakeLayout;
import io.skippr.connect.sink.log.OrphanSweeper;
import io.skippr.connect.sink.log.RecoveredTp;
import io.skippr.connect.sink.log.SinkProgress;
import io.skippr.connect.sink.log.TpLog;
import io.skippr.connect.sink.log.TpRecovery;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens TPs for a task: recovers each log (new epoch, pending intent, orphans), decides where the
 * TP resumes, and gives a mirror that lost the TP's progress its row back. One per call of {@link
 * LakeWriter#open}.
 */
final class TpOpener {
  private static final Logger LOG = LoggerFactory.getLogger(TpOpener.class);

  private final WriterParts parts;
  private final LakeIdentity lake;
  private final OrphanSweeper sweeper;
  private final TpRecovery recovery;

  TpOpener(WriterParts parts, LakeLayout layout, LakeIdentity lake, WriterSettings settings) {
    this.parts = parts;
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
   * The TP's session, resuming where its log (or the mirror) says, else where this task dropped its
   * records when it last closed the TP ({@code dropped}, null if it did not).
   *
   * @throws io.skippr.connect.sink.log.LogFormatException when the log has an unknown format
   */
  TpSession open(TopicPartition tp, Long dropped) {
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
    return new TpSession(tp, recovered.log(), recovered.replay().orElse(null), seek);
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
