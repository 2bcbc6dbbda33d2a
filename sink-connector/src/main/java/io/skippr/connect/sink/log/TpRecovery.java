package io.skippr.connect.sink.log;

import io.skippr.connect.sink.storage.LakeStorage;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a TP for writing (step 1 of the commit protocol): read the log, claim a new epoch, settle
 * the pending intent, delete orphans, and decide where to resume.
 */
public final class TpRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(TpRecovery.class);

  private final LakeStorage storage;
  private final LakeLayout layout;
  private final ProgressMirror mirror;
  private final String configFingerprint;
  private final String owner;

  /**
   * @param configFingerprint fingerprint of the current settings that shape files; a pending intent
   *     planned under other settings is abandoned instead of replayed
   * @param owner who claims the TPs (recorded in epoch entries)
   */
  public TpRecovery(
      LakeStorage storage,
      LakeLayout layout,
      ProgressMirror mirror,
      String configFingerprint,
      String owner) {
    this.storage = storage;
    this.layout = layout;
    this.mirror = mirror;
    this.configFingerprint = configFingerprint;
    this.owner = owner;
  }

  /**
   * Recovers one TP.
   *
   * @throws LogFormatException when the log has an entry of an unknown format; nothing is changed
   */
  public RecoveredTp recover(String topic, int partition, long nowMs, OrphanSweeper sweeper)
      throws IOException {
    TpLog log = TpLog.read(storage, layout, topic, partition);
    log.claimEpoch(owner, nowMs);
    Optional<LogEntry.Intent> pending = log.state().pending();
    if (pending.isPresent() && !pending.get().configFingerprint().equals(configFingerprint)) {
      LOG.info(
          "Abandoning unit {}: the settings changed since it was planned; planning anew",
          pending.get().id());
      log.abandon(pending.get(), "settings changed since the intent");
      pending = Optional.empty();
    }
    List<String> orphans = sweeper.sweep(topic, partition, log.state());
    if (!orphans.isEmpty()) {
      LOG.info("Deleted {} orphan file(s) of {}-{}: {}", orphans.size(), topic, partition, orphans);
    }
    OptionalLong seek = seekOffset(topic, partition, log.state(), pending);
    LOG.info(
        "Opened {}-{} with epoch {}{}, resuming at {}",
        topic,
        partition,
        log.epoch(),
        pending.map(intent -> ", replaying " + intent.id()).orElse(""),
        seek.isPresent() ? seek.getAsLong() : "the consumer's committed offset");
    return new RecoveredTp(log, pending, seek, orphans);
  }

  private OptionalLong seekOffset(
      String topic, int partition, LogState state, Optional<LogEntry.Intent> pending) {
    if (pending.isPresent()) {
      return OptionalLong.of(pending.get().start());
    }
    if (state.lastCommit().isPresent()) {
      return OptionalLong.of(state.lastCommit().get().end() + 1);
    }
    return mirror
        .lookup(topic, partition)
        .map(progress -> OptionalLong.of(progress.endOffset() + 1))
        .orElse(OptionalLong.empty());
  }
}
