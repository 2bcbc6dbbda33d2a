package io.skippr.connect.lake.write;

import io.skippr.connect.common.Sha256;
import io.skippr.connect.lake.buffer.PathBuffer;
import io.skippr.connect.lake.buffer.UnitBuffer;
import io.skippr.connect.lake.convert.ParquetSchemas;
import io.skippr.connect.lake.format.LakeFileWriter;
import io.skippr.connect.lake.log.LakeIdentity;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.ProgressMirror;
import io.skippr.connect.lake.log.SinkProgress;
import io.skippr.connect.lake.log.TablePolicyLog;
import io.skippr.connect.lake.maintenance.WritePolicyConfig;
import io.skippr.connect.lake.metrics.LakeSinkMetrics;
import io.skippr.connect.lake.publish.CommitListener;
import io.skippr.connect.lake.publish.UnitCommitted;
import io.skippr.connect.lake.storage.HashingStream;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.PendingObject;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.data.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Steps 4 to 6 of the commit protocol (lake-format.md, The commit protocol) for one unit whose
 * intent its TP's state machine appended (step 3): write one file per table partition path, have
 * the state machine append the commit (step 5), mirror the progress and checkpoint. Runs on the
 * {@link CommitQueue}'s thread.
 */
final class UnitCommitter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(UnitCommitter.class);

  private final LakeStorage storage;
  private final LakeLayout layout;
  private final LakeIdentity lake;
  private final LakeFileWriter fileWriter;
  private final ProgressMirror mirror;
  private final String configFingerprint;
  private final int checkpointInterval;
  private final FileWritePool files;
  private final LakeSinkMetrics metrics;
  private final SourcePositions sourcePositions;
  private final CommitListener listener;
  private final WritePolicyConfig.Policy writePolicy;
  private final long retiredGraceMs;
  private final TablePolicies policies;

  /** The fingerprint of the last file schema; a unit's files nearly always share one schema. */
  private Schema fingerprinted;

  private String fingerprint;

  /** Takes the writer's storage, file writer, progress mirror and source positions. */
  UnitCommitter(
      WriterParts parts,
      LakeLayout layout,
      LakeIdentity lake,
      WriterSettings settings,
      LakeSinkMetrics metrics,
      CommitListener listener) {
    this.storage = parts.storage();
    this.listener = listener;
    this.metrics = metrics;
    this.sourcePositions = parts.sourcePositions();
    this.layout = layout;
    this.lake = lake;
    this.fileWriter = parts.fileWriter();
    this.mirror = parts.mirror();
    this.configFingerprint = settings.configFingerprint();
    this.checkpointInterval = settings.checkpointInterval();
    this.files = new FileWritePool(settings.writeConcurrency());
    this.writePolicy = settings.writePolicy().policy();
    this.policies = new TablePolicies(new TablePolicyLog(storage, layout), settings.writePolicy());
    this.retiredGraceMs = settings.retiredGraceMs();
  }

  /** The key of the file a unit writes for one table partition path. */
  String fileKey(String table, String partitionPath, String compactionId) {
    return layout.fileKey(table, partitionPath, compactionId, fileWriter.extension());
  }

  /**
   * Records the write policy of tables this writer has not committed to yet, writes a unit's files
   * under the intent's id and appends the commit. Files the intent names but this unit did not
   * write (a replay that saw fewer records) are deleted after the commit. Touches only the unit and
   * the TP's log, so it runs on the pipeline's thread while the task buffers the TP's next records.
   */
  void write(TpStateMachine tpState, UnitBuffer unit, LogEntry.Intent intent, String trigger)
      throws IOException {
    long started = System.nanoTime();
    List<String> tables = new ArrayList<>();
    unit.paths().forEach(path -> tables.add(path.table()));
    policies.recordFor(tables);
    List<FileWritePool.Job<LiveFile>> writes = new ArrayList<>();
    for (PathBuffer path : unit.paths()) {
      String key = fileKey(path.table(), path.partitionPath(), intent.id());
      String schemaFingerprint = fingerprint(path.schema());
      writes.add(() -> writeFile(key, path, schemaFingerprint, intent.wallclockMs()));
    }
    List<LiveFile> files = this.files.runAll(writes);
    TpStateMachine.AppendedCommit committed = commit(tpState, intent, files);
    publish(tpState, intent, committed, files);
    long bytes = 0;
    for (LiveFile file : files) {
      bytes += file.bytes();
    }
    metrics.committed(files.size(), unit.rows(), bytes, (System.nanoTime() - started) / 1_000_000);
    tpState.gauges().committed(intent.end());
    Set<String> written = new HashSet<>();
    files.forEach(file -> written.add(file.key()));
    for (String key : intent.files()) {
      if (!written.contains(key)) {
        storage.delete(key);
      }
    }
    LOG.debug(
        "Committed {}: {} record(s), {} row(s) in {} file(s); trigger {}",
        intent.id(),
        unit.records(),
        unit.rows(),
        files.size(),
        trigger);
    mirror(tpState, intent);
    tpState.log.checkpointIfDue(checkpointInterval);
  }

  /** Has the TP's state machine append the unit's commit, built here. */
  private TpStateMachine.AppendedCommit commit(
      TpStateMachine tpState, LogEntry.Intent intent, List<LiveFile> files) throws IOException {
    return tpState.appendCommit(
        keys(files),
        retired ->
            new LogEntry.Commit(
                intent.id(),
                intent.start(),
                intent.end(),
                tpState.log.epoch(),
                files,
                sourcePositions.at(tpState.tp, intent.end()),
                keys(retired),
                intent.wallclockMs() + retiredGraceMs),
        stages() ? live -> replaced(live, files) : null);
  }

  /** Whether units write their files staged: when they may replace older ones. */
  private boolean stages() {
    return writePolicy == WritePolicyConfig.Policy.REPLACE_PARTITION;
  }

  /** Tells the listener; the lake commit has happened, so its failure is only logged. */
  private void publish(
      TpStateMachine tpState,
      LogEntry.Intent intent,
      TpStateMachine.AppendedCommit committed,
      List<LiveFile> files) {
    try {
      listener.committed(
          new UnitCommitted(
              tpState.tp,
              intent.id(),
              intent.start(),
              intent.end(),
              tpState.log.epoch(),
              committed.seq(),
              files,
              committed.retired()));
    } catch (RuntimeException e) {
      LOG.warn("Could not publish the commit of {}: {}", intent.id(), e.toString());
    }
  }

  private void mirror(TpStateMachine tpState, LogEntry.Intent intent) {
    SinkProgress progress =
        new SinkProgress(
            tpState.tp.topic(),
            tpState.tp.partition(),
            intent.end(),
            intent.id(),
            tpState.log.epoch(),
            tpState.log.state().lastSeq(),
            tpState.log.state().generation(),
            lake.id(),
            lake.location());
    try {
      mirror.record(progress);
    } catch (RuntimeException e) {
      // The lake log is the truth; a stale mirror only matters when the log is lost.
      LOG.warn("Could not mirror progress {}: {}", progress, e.toString());
    }
  }

  /** Stops the threads that write files. */
  @Override
  public void close() {
    files.close();
  }

  /**
   * With {@code write.policy=replace_partition}: the TP's older live files of the partition paths
   * this unit writes, which its commit retires.
   */
  private static List<LiveFile> replaced(Map<String, LiveFile> live, List<LiveFile> written) {
    Set<String> dirs = new HashSet<>();
    Set<String> own = new HashSet<>();
    for (LiveFile file : written) {
      own.add(file.key());
      dirs.add(file.key().substring(0, file.key().lastIndexOf('/') + 1));
    }
    List<LiveFile> replaced = new ArrayList<>();
    for (LiveFile file : live.values()) {
      String key = file.key();
      if (!own.contains(key) && dirs.contains(key.substring(0, key.lastIndexOf('/') + 1))) {
        replaced.add(file);
      }
    }
    replaced.sort(Comparator.comparing(LiveFile::key));
    return replaced;
  }

  private static List<String> keys(List<LiveFile> files) {
    List<String> keys = new ArrayList<>(files.size());
    files.forEach(file -> keys.add(file.key()));
    return keys;
  }

  /** Writes one file; runs on a thread of {@link #files}, so it touches no shared state. */
  private LiveFile writeFile(
      String key, PathBuffer path, String schemaFingerprint, long committedAtMs)
      throws IOException {
    MessageDigest sha256 = Sha256.newDigest();
    try (PendingObject object = storage.create(stages() ? layout.stagedKey(key) : key)) {
      HashingStream out = new HashingStream(object.stream(), sha256);
      fileWriter.write(path.schema(), path.rows(), out);
      out.flush();
      object.complete();
      return new LiveFile(
          key, path.rows().size(), out.count(), out.hex(), schemaFingerprint, committedAtMs);
    }
  }

  private synchronized String fingerprint(Schema schema) {
    if (schema != fingerprinted) {
      fingerprint = ParquetSchemas.fingerprint(schema);
      fingerprinted = schema;
    }
    return fingerprint;
  }
}
