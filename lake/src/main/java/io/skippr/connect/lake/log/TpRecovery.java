package io.skippr.connect.lake.log;

import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a TP for writing (lake-format.md, The commit protocol, step 1): read the log, claim a new
 * epoch, replay or abandon the pending intent, delete orphans, and decide where to resume.
 */
public final class TpRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(TpRecovery.class);

  private final LakeStorage storage;
  private final LakeLayout layout;
  private final LakeIdentity lake;
  private final ProgressMirror mirror;
  private final String configFingerprint;
  private final String owner;

  /**
   * @param lake the lake's identity: only mirrored progress of this lake is used
   * @param configFingerprint fingerprint of the current settings that shape files; a pending intent
   *     planned under other settings is abandoned instead of replayed
   * @param owner who claims the TPs (recorded in epoch entries)
   */
  public TpRecovery(
      LakeStorage storage,
      LakeLayout layout,
      LakeIdentity lake,
      ProgressMirror mirror,
      String configFingerprint,
      String owner) {
    this.storage = storage;
    this.layout = layout;
    this.lake = lake;
    this.mirror = mirror;
    this.configFingerprint = configFingerprint;
    this.owner = owner;
  }

  /**
   * Recovers one TP.
   *
   * @throws LogFormatException when the log has an entry of an unknown format, is damaged, was
   *     written for another lake, or lists a live file storage does not have; nothing is changed
   */
  public RecoveredTp recover(String topic, int partition, long nowMs, OrphanSweeper sweeper)
      throws IOException {
    TpLog log = withLiveFiles(TpLog.read(storage, layout, topic, partition), sweeper);
    log.claimEpoch(lake, owner, nowMs);
    Optional<LogEntry.Intent> pending = log.state().pending();
    if (pending.isPresent() && !pending.get().configFingerprint().equals(configFingerprint)) {
      LOG.info(
          "Abandoning unit {}: the settings changed since it was planned; planning anew",
          pending.get().id());
      log.abandon(pending.get(), "settings changed since the intent");
      pending = Optional.empty();
    }
    List<String> orphans = clearLastOwnersLeftovers(log, sweeper);
    OptionalLong seek = log.state().resumeOffset();
    String from = describe(log.state(), pending);
    if (seek.isEmpty() && log.state().generation() == 0) {
      Optional<SinkProgress> mirrored = mirroredProgress(topic, partition);
      if (mirrored.isPresent()) {
        seek = resumeFromMirror(log, mirrored.get());
        from = "the progress mirrored in the state store (" + mirrored.get().compactionId() + ")";
      }
    }
    LOG.info(
        "Opened {}-{} with epoch {}{}, resuming at {}",
        topic,
        partition,
        log.epoch(),
        pending.map(intent -> ", replaying " + intent.id()).orElse(""),
        seek.isPresent()
            ? seek.getAsLong() + ", " + from
            : "the consumer's position (the lake has no record of this partition)");
    return new RecoveredTp(log, pending, seek, from, orphans);
  }

  /**
   * Claims a TP for one maintenance pass while its connector is stopped ({@code skippr compact}):
   * the checks, epoch claim, abandoned merge and orphan sweep of {@link #recover}, so that the pass
   * fences the TP's last writer exactly as a new writer would. A pending unit stays as it is, for
   * the TP's next writer to replay or abandon; where to resume is not decided.
   *
   * @throws LogFormatException as {@link #recover}; nothing is changed
   */
  public TpLog claim(String topic, int partition, long nowMs, OrphanSweeper sweeper)
      throws IOException {
    TpLog log = withLiveFiles(TpLog.read(storage, layout, topic, partition), sweeper);
    log.claimEpoch(lake, owner, nowMs);
    clearLastOwnersLeftovers(log, sweeper);
    return log;
  }

  /**
   * Abandons the merge the TP's last owner left under way, then finishes the file moves it left
   * half done and deletes the TP's orphans.
   *
   * @return the deleted orphans
   */
  private static List<String> clearLastOwnersLeftovers(TpLog log, OrphanSweeper sweeper)
      throws IOException {
    Optional<LogEntry.CompactIntent> merge = log.state().compacting();
    if (merge.isPresent()) {
      LOG.info("Abandoning merge {}: its writer stopped before the commit", merge.get().id());
      log.abandon(merge.get(), "the writer stopped before the commit");
    }
    List<String> orphans = sweeper.sweep(log);
    if (!orphans.isEmpty()) {
      LOG.info(
          "Deleted {} orphan file(s) of {}-{}: {}",
          orphans.size(),
          log.topic(),
          log.partition(),
          orphans);
    }
    return orphans;
  }

  /**
   * The log, once every file it lists as live is in storage. A live file storage lacks is read
   * again from the log first: maintenance of the TP's last owner may have retired and deleted it
   * meanwhile.
   *
   * @throws LogFormatException naming the files still live and missing, and the way out
   */
  private TpLog withLiveFiles(TpLog log, OrphanSweeper sweeper) throws IOException {
    log.requireLake(lake);
    List<String> missing = sweeper.missing(log.state());
    if (missing.isEmpty()) {
      return log;
    }
    TpLog again = TpLog.read(storage, layout, log.topic(), log.partition());
    again.requireLake(lake);
    List<LiveFile> gone =
        missing.stream()
            .map(key -> again.state().liveFiles().get(key))
            .filter(f -> f != null)
            .toList();
    if (gone.isEmpty()) {
      return again;
    }
    LiveFile first = gone.get(0);
    throw new LogFormatException(
        "Refusing to open "
            + log.topic()
            + "-"
            + log.partition()
            + ": its log lists "
            + storage.location()
            + first.key()
            + " as live, but storage does not have it"
            + (gone.size() > 1 ? " (nor " + (gone.size() - 1) + " more: " + keys(gone) + ")" : "")
            + ". Its rows are not in the lake. Nothing was changed. Restore the file from a backup"
            + " or an earlier version of the object ("
            + first.bytes()
            + " bytes, sha256 "
            + first.sha256()
            + ") and restart, or land the partition again from scratch (see \"A damaged lake\" in"
            + " docs/lake-format.md).");
  }

  private static List<String> keys(List<LiveFile> files) {
    return files.stream().skip(1).limit(10).map(LiveFile::key).toList();
  }

  private static String describe(LogState state, Optional<LogEntry.Intent> pending) {
    if (pending.isPresent()) {
      return "the start of the pending unit " + pending.get().id();
    }
    if (state.lastCommit().isPresent()) {
      return "after the last committed unit " + state.lastCommit().get().id();
    }
    return "the start of generation " + state.generation();
  }

  /** This lake's mirrored progress; a row of another lake is dropped with a warning. */
  private Optional<SinkProgress> mirroredProgress(String topic, int partition) {
    Optional<SinkProgress> row = mirror.lookup(topic, partition);
    if (row.isEmpty() || row.get().belongsTo(lake)) {
      return row;
    }
    SinkProgress foreign = row.get();
    LOG.warn(
        "Ignoring the progress of {}-{} mirrored in the state store (up to offset {}, unit {}):"
            + " it was written for {} but this lake is {} at {}; the row is dropped and this"
            + " lake's progress replaces it",
        topic,
        partition,
        foreign.endOffset(),
        foreign.compactionId(),
        foreign.lakeId() == null
            ? "a lake without identity (an older version of the connector)"
            : "lake " + foreign.lakeId() + " at " + foreign.lakeLocation(),
        lake.id(),
        lake.location());
    mirror.forget(topic, partition);
    return Optional.empty();
  }

  /** A mirrored row of a later generation restarts that generation, so unit ids stay unique. */
  private static OptionalLong resumeFromMirror(TpLog log, SinkProgress progress)
      throws IOException {
    long next = progress.endOffset() + 1;
    if (progress.generation() > 0) {
      log.append(
          new LogEntry.Generation(
              log.epoch(),
              progress.generation(),
              next,
              progress.endOffset(),
              "the log was lost; resumed from the mirrored progress of generation "
                  + progress.generation()));
    }
    return OptionalLong.of(next);
  }
}
