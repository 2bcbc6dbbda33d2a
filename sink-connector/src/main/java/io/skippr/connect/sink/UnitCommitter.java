package io.skippr.connect.sink;

import io.skippr.connect.common.Sha256;
import io.skippr.connect.sink.buffer.BufferBudget;
import io.skippr.connect.sink.buffer.PathBuffer;
import io.skippr.connect.sink.buffer.UnitBuffer;
import io.skippr.connect.sink.convert.ParquetSchemas;
import io.skippr.connect.sink.format.LakeFileWriter;
import io.skippr.connect.sink.log.LakeIdentity;
import io.skippr.connect.sink.log.LakeLayout;
import io.skippr.connect.sink.log.LiveFile;
import io.skippr.connect.sink.log.LogEntry;
import io.skippr.connect.sink.log.ProgressMirror;
import io.skippr.connect.sink.log.SinkProgress;
import io.skippr.connect.sink.storage.LakeStorage;
import io.skippr.connect.sink.storage.PendingObject;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.apache.kafka.connect.data.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Steps 3 and 4 of the commit protocol for one unit: append the intent (conditional on the epoch),
 * write one file per table partition path, append the commit, mirror the progress.
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
  private final BufferBudget budget;
  private final FileWritePool files;

  /** The fingerprint of the last file schema; a unit's files nearly always share one schema. */
  private Schema fingerprinted;

  private String fingerprint;

  UnitCommitter(
      LakeStorage storage,
      LakeLayout layout,
      LakeIdentity lake,
      LakeFileWriter fileWriter,
      ProgressMirror mirror,
      WriterSettings settings,
      BufferBudget budget) {
    this.budget = budget;
    this.storage = storage;
    this.layout = layout;
    this.lake = lake;
    this.fileWriter = fileWriter;
    this.mirror = mirror;
    this.configFingerprint = settings.configFingerprint();
    this.checkpointInterval = settings.checkpointInterval();
    this.files = new FileWritePool(settings.writeConcurrency());
  }

  /** The key of the file a unit writes for one table partition path. */
  String fileKey(String table, String partitionPath, String compactionId) {
    return layout.fileKey(table, partitionPath, compactionId, fileWriter.extension());
  }

  /** Plans the writer's buffered unit and appends its intent. */
  LogEntry.Intent plan(TpWriter writer) throws IOException {
    UnitBuffer unit = writer.unit;
    String id =
        LakeLayout.compactionId(
            writer.tp.topic(),
            writer.tp.partition(),
            writer.log.state().generation(),
            unit.start(),
            unit.end());
    List<String> files = new ArrayList<>();
    for (PathBuffer path : unit.paths()) {
      files.add(fileKey(path.table(), path.partitionPath(), id));
    }
    LogEntry.Intent intent =
        new LogEntry.Intent(
            id,
            unit.start(),
            unit.end(),
            writer.log.epoch(),
            unit.wallclockMs(),
            configFingerprint,
            files);
    writer.log.append(intent);
    return intent;
  }

  /**
   * Writes the writer's buffered unit under the intent's id, commits it, and starts a new unit, on
   * the caller's thread.
   */
  void commit(TpWriter writer, LogEntry.Intent intent, String trigger) throws IOException {
    UnitBuffer unit = writer.unit;
    write(writer, unit, intent, trigger);
    writer.unit = new UnitBuffer();
    budget.release(unit.bytes());
  }

  /**
   * Writes a unit's files under the intent's id and appends the commit. Files the intent names but
   * this unit did not write (a replay that saw fewer records) are deleted after the commit. Touches
   * only the unit and the TP's log, so it may run on a thread other than the task's while the task
   * buffers the TP's next records; the caller releases the unit's bytes.
   */
  void write(TpWriter writer, UnitBuffer unit, LogEntry.Intent intent, String trigger)
      throws IOException {
    List<FileWritePool.Job<LiveFile>> writes = new ArrayList<>();
    for (PathBuffer path : unit.paths()) {
      String key = fileKey(path.table(), path.partitionPath(), intent.id());
      String schemaFingerprint = fingerprint(path.schema());
      writes.add(() -> writeFile(key, path, schemaFingerprint));
    }
    List<LiveFile> files = this.files.runAll(writes);
    writer.log.append(
        new LogEntry.Commit(intent.id(), intent.start(), intent.end(), writer.log.epoch(), files));
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
    mirror(writer, intent);
    writer.log.checkpointIfDue(checkpointInterval);
  }

  private void mirror(TpWriter writer, LogEntry.Intent intent) {
    SinkProgress progress =
        new SinkProgress(
            writer.tp.topic(),
            writer.tp.partition(),
            intent.end(),
            intent.id(),
            writer.log.epoch(),
            writer.log.state().lastSeq(),
            writer.log.state().generation(),
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

  /** Writes one file; runs on a thread of {@link #files}, so it touches no shared state. */
  private LiveFile writeFile(String key, PathBuffer path, String schemaFingerprint)
      throws IOException {
    MessageDigest sha256 = Sha256.newDigest();
    try (PendingObject object = storage.create(key)) {
      HashingStream out = new HashingStream(object.stream(), sha256);
      fileWriter.write(path.schema(), path.rows(), out);
      out.flush();
      object.complete();
      return new LiveFile(
          key,
          path.rows().size(),
          out.count,
          HexFormat.of().formatHex(sha256.digest()),
          schemaFingerprint);
    }
  }

  private synchronized String fingerprint(Schema schema) {
    if (schema != fingerprinted) {
      fingerprint = ParquetSchemas.fingerprint(schema);
      fingerprinted = schema;
    }
    return fingerprint;
  }

  /** Counts and hashes what passes; closing it does not close the object. */
  private static final class HashingStream extends FilterOutputStream {
    private final MessageDigest digest;
    private long count;

    HashingStream(OutputStream out, MessageDigest digest) {
      super(out);
      this.digest = digest;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      digest.update((byte) b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      digest.update(b, off, len);
      count += len;
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
