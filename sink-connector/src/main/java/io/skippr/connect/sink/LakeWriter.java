package io.skippr.connect.sink;

import io.skippr.connect.sink.buffer.BufferBudget;
import io.skippr.connect.sink.buffer.RotationConfig;
import io.skippr.connect.sink.buffer.RotationTriggers;
import io.skippr.connect.sink.buffer.UnitBuffer;
import io.skippr.connect.sink.convert.LakeRow;
import io.skippr.connect.sink.convert.RecordRejectedException;
import io.skippr.connect.sink.log.FencedException;
import io.skippr.connect.sink.log.GenerationConfig;
import io.skippr.connect.sink.log.LakeIdentity;
import io.skippr.connect.sink.log.LakeLayout;
import io.skippr.connect.sink.log.LogEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the records of the TPs a task owns into committed lake units: open (recover each TP) → put
 * (convert, partition, buffer, rotate) → preCommit (only committed offsets). Called by the task's
 * thread only; a cut unit is written on a thread of its own ({@link BackgroundCommit}). Records are
 * tracked by their original topic, partition and offset, so topic-renaming transforms cannot break
 * exactly-once.
 */
public final class LakeWriter {
  private static final Logger LOG = LoggerFactory.getLogger(LakeWriter.class);
  private static final String MEMORY_TRIGGER = RotationConfig.BUFFER_MAX_BYTES;

  private final WriterSettings settings;
  private final WriterParts parts;
  private final SinkTaskContext context;
  private final LakeLayout layout = new LakeLayout("");
  private final LakeIdentity lake;
  private final RotationTriggers triggers;
  private final BufferBudget budget;
  private final UnitCommitter committer;

  /** Commits cut units while the task buffers on; null when units are written inside put. */
  private final BackgroundCommit background;

  private final ErrantRecords errant;
  private final Map<TopicPartition, TpWriter> writers = new LinkedHashMap<>();
  private final Set<TopicPartition> pausedForMemory = new LinkedHashSet<>();

  /**
   * Where a TP closed by this task must resume if it comes back without a commit in its log. A
   * consumer keeps its fetch position for partitions that stay assigned across an eager rebalance,
   * so without an explicit seek the records this task had buffered (and dropped) would be skipped.
   */
  private final Map<TopicPartition, Long> resumeAfterClose = new HashMap<>();

  public LakeWriter(WriterSettings settings, WriterParts parts, SinkTaskContext context) {
    this.settings = settings;
    this.parts = parts;
    this.context = context;
    this.triggers = new RotationTriggers(settings.rotation());
    this.budget = new BufferBudget(settings.rotation().bufferMaxBytes());
    this.lake = establishIdentity(parts);
    this.committer =
        new UnitCommitter(
            parts.storage(), layout, lake, parts.fileWriter(), parts.mirror(), settings, budget);
    this.errant = new ErrantRecords(context.errantRecordReporter(), settings.toleratesErrors());
    this.background = settings.writeAsync() ? new BackgroundCommit() : null;
  }

  private LakeIdentity establishIdentity(WriterParts parts) {
    try {
      LakeIdentity identity =
          LakeIdentity.establish(parts.storage(), layout, parts.clock().millis());
      LOG.info("Writing to lake {} at {}", identity.id(), identity.location());
      return identity;
    } catch (IOException e) {
      throw new ConnectException(
          "Cannot read or create the lake's identity in " + parts.storage().location(), e);
    }
  }

  /** The identity of the lake this writer writes to. */
  public LakeIdentity lake() {
    return lake;
  }

  /**
   * Recovers each TP (new epoch, pending intent, orphans) and seeks the consumer where it resumes.
   *
   * @throws io.skippr.connect.sink.log.LogFormatException when a TP's log has an unknown format
   */
  public void open(Collection<TopicPartition> partitions) {
    settleInFlight(true);
    TpOpener opener = new TpOpener(parts, layout, lake, settings);
    for (TopicPartition tp : partitions) {
      close(List.of(tp));
      TpWriter writer = opener.open(tp, resumeAfterClose.remove(tp));
      writers.put(tp, writer);
      writer.openedAt.ifPresent(offset -> context.offset(tp, offset));
    }
  }

  /** Buffers the records, writing every unit whose trigger fires. */
  public void put(Collection<SinkRecord> records) {
    settleInFlight(false);
    for (SinkRecord record : records) {
      TpWriter writer = writerFor(record);
      long offset = record.originalKafkaOffset();
      if (writer.fenced || !continues(writer, offset)) {
        continue;
      }
      guarded(writer, () -> accept(writer, record, offset));
      relieveMemory();
    }
    writers.values().forEach(writer -> writer.continuity.batchEnded());
    long now = parts.clock().millis();
    for (TpWriter writer : new ArrayList<>(writers.values())) {
      if (writer.rotatable()) {
        String trigger = triggers.onClock(writer.unit, now);
        if (trigger != null) {
          guarded(writer, () -> rotate(writer, trigger));
        }
      }
    }
    resumeWhenUnderBudget();
  }

  private TpWriter writerFor(SinkRecord record) {
    TopicPartition tp = new TopicPartition(record.originalTopic(), record.originalKafkaPartition());
    TpWriter writer = writers.get(tp);
    if (writer == null) {
      // Connect opens partitions before delivering them; never drop records if it did not.
      LOG.warn("Records of {} arrived before it was opened; opening it now", tp);
      open(List.of(tp));
      writer = writers.get(tp);
    }
    return writer;
  }

  /**
   * Whether a delivered record continues its TP where the lake expects ({@link OffsetContinuity}):
   * seeks the TP when asked to, and meets offsets the lake cannot account for as configured.
   */
  private boolean continues(TpWriter writer, long offset) {
    OffsetContinuity.Step step = writer.continuity.check(offset);
    if (step.notice() != null) {
      LOG.warn("{}", step.notice());
    }
    switch (step.action()) {
      case ACCEPT:
        return true;
      case SEEK:
        LOG.info(
            "Seeking {} to offset {} (offset {} was delivered)", writer.tp, step.seekTo(), offset);
        context.offset(writer.tp, step.seekTo());
        return false;
      case DISCONTINUITY:
        guarded(writer, () -> startGeneration(writer, step.discontinuity()));
        return !writer.fenced;
      default:
        return false;
    }
  }

  /**
   * Offsets the lake cannot account for: fails the task, or (when configured) lands what Kafka has
   * as a new generation of the TP, after committing what the TP buffered of the old one.
   */
  private void startGeneration(TpWriter writer, OffsetContinuity.Discontinuity gap)
      throws IOException {
    if (settings.onDiscontinuity() != GenerationConfig.Behavior.NEW_GENERATION) {
      throw new ConnectException(
          "Not writing "
              + writer.tp
              + ": "
              + gap.describe()
              + ". "
              + GenerationConfig.howToProceed());
    }
    settleInFlightFor(writer);
    if (writer.replaying()) {
      abandonReplay(writer, "its records are no longer in Kafka");
    }
    rotate(writer, "new generation");
    settleInFlightFor(writer);
    long previousEnd = writer.committedEnd().orElse(-1);
    long generation = writer.log.state().generation() + 1;
    writer.log.append(
        new LogEntry.Generation(
            writer.log.epoch(), generation, gap.delivered(), previousEnd, gap.describe()));
    writer.continuity.restartAt(gap.delivered());
    writer.firstAccepted = -1;
    LOG.warn(
        "{}. Started generation {} of {} at offset {}: its units are named {}",
        gap.describe(),
        generation,
        writer.tp,
        gap.delivered(),
        LakeLayout.compactionId(
            writer.tp.topic(),
            writer.tp.partition(),
            generation,
            gap.delivered(),
            gap.delivered()));
  }

  /** The offsets to commit to Kafka: {@code end + 1} of each TP's last committed unit. */
  public Map<TopicPartition, OffsetAndMetadata> preCommit() {
    Map<TopicPartition, OffsetAndMetadata> offsets = new LinkedHashMap<>();
    settleInFlight(false); // never waits: Connect asks again on its next offset commit
    for (TpWriter writer : writers.values()) {
      if (!writer.fenced) {
        committedEnd(writer)
            .ifPresent(end -> offsets.put(writer.tp, new OffsetAndMetadata(end + 1)));
      }
    }
    return offsets;
  }

  /** Forgets the TPs, dropping what they buffered: their next owner reads it again from Kafka. */
  public void close(Collection<TopicPartition> partitions) {
    settleBeforeClose(partitions);
    for (TopicPartition tp : partitions) {
      TpWriter writer = writers.remove(tp);
      if (writer != null) {
        budget.release(writer.unit.bytes());
        writer.resumeOffset().ifPresent(offset -> resumeAfterClose.put(tp, offset));
      }
      pausedForMemory.remove(tp);
    }
  }

  /** Closes every TP and stops the threads that write files. */
  public void stop() {
    try {
      close(new ArrayList<>(writers.keySet()));
    } finally {
      if (background != null) {
        background.close();
      }
      committer.close();
    }
  }

  /** Bytes buffered now across all TPs (the task's own accounting). */
  public long bufferedBytes() {
    return budget.bytes();
  }

  /** The most bytes buffered at once since this writer started. */
  public long peakBufferedBytes() {
    return budget.peakBytes();
  }

  /** TPs paused because the buffer budget could not be met by writing units. */
  public Set<TopicPartition> pausedPartitions() {
    return Set.copyOf(pausedForMemory);
  }

  private void accept(TpWriter writer, SinkRecord record, long offset) throws IOException {
    if (writer.replaying() && offset > writer.replay.end()) {
      finishReplay(writer);
    }
    if (!writer.replaying()) {
      String trigger = triggers.beforeRecord(writer.unit, record.timestamp());
      if (trigger != null) {
        rotate(writer, trigger);
      }
    }
    if (writer.firstAccepted < 0) {
      writer.firstAccepted = offset;
    }
    beginUnit(writer);
    Routed routed = route(writer, record);
    if (routed != null) {
      buffer(writer, record, routed);
    }
    writer.unit.noteRecord(offset, record.timestamp());
    if (writer.replaying()) {
      if (offset >= writer.replay.end()) {
        finishReplay(writer);
      }
    } else {
      String trigger = triggers.afterRecord(writer.unit);
      if (trigger != null) {
        rotate(writer, trigger);
      }
    }
  }

  private void beginUnit(TpWriter writer) {
    writer.unit.begin(writer.replaying() ? writer.replay.wallclockMs() : parts.clock().millis());
  }

  /** A row and its partition path; null when the record yields no row. */
  private record Routed(LakeRow row, String path) {}

  private Routed route(TpWriter writer, SinkRecord record) {
    LakeRow row;
    try {
      row = parts.converter().convert(record);
      if (row != null && LakeLayout.SYSTEM_DIR.equals(row.table())) {
        throw new RecordRejectedException(
            "table name '" + LakeLayout.SYSTEM_DIR + "' is reserved for the lake's logs");
      }
    } catch (RecordRejectedException e) {
      errant.reject(record, e);
      return null;
    }
    return row == null ? null : withPath(writer, record, row);
  }

  /** The row with its partition path under the writer's open unit; null when rejected. */
  private Routed withPath(TpWriter writer, SinkRecord record, LakeRow row) {
    try {
      return new Routed(
          row, parts.partitioner().partitionPath(record, row.row(), writer.unit.wallclockMs()));
    } catch (RecordRejectedException e) {
      errant.reject(record, e);
      return null;
    }
  }

  private void buffer(TpWriter writer, SinkRecord record, Routed routed) throws IOException {
    LakeRow row = routed.row();
    if (writer.replaying()
        && !writer
            .replay
            .files()
            .contains(committer.fileKey(row.table(), routed.path(), writer.replay.id()))) {
      abandonReplay(
          writer, "offset " + record.originalKafkaOffset() + " maps to an unplanned file");
    }
    long bytes = row.estimatedBytes();
    if (!writer.unit.add(row.table(), routed.path(), row.row(), bytes, parts.schemaMerge())) {
      if (writer.replaying()) {
        abandonReplay(writer, "incompatible schema inside the unit");
      }
      rotate(writer, "schema change");
      beginUnit(writer);
      // The new unit has its own wall clock, so the path is computed again.
      routed = withPath(writer, record, row);
      if (routed == null) {
        return;
      }
      writer.unit.add(
          routed.row().table(), routed.path(), routed.row().row(), bytes, parts.schemaMerge());
    }
    budget.add(bytes);
  }

  /**
   * Cuts the TP's unit: appends its intent, then commits it in the background (or right here when
   * units are written inside put). Settles the unit in flight first, so intents stay in order.
   */
  private void rotate(TpWriter writer, String trigger) throws IOException {
    if (writer.unit.isEmpty()) {
      return;
    }
    settleInFlightFor(writer);
    LogEntry.Intent intent = committer.plan(writer);
    if (background == null) {
      committer.commit(writer, intent, trigger);
      return;
    }
    UnitBuffer unit = writer.unit;
    writer.unit = new UnitBuffer();
    background.submit(writer, unit, () -> committer.write(writer, unit, intent, trigger));
  }

  private void finishReplay(TpWriter writer) throws IOException {
    settleInFlightFor(writer);
    LogEntry.Intent intent = writer.replay;
    writer.replay = null;
    committer.commit(writer, intent, "replay");
    LOG.info("Replayed unit {} of {}", intent.id(), writer.tp);
  }

  /** The replay cannot reproduce the intent: give it up and let the unit be planned anew. */
  private void abandonReplay(TpWriter writer, String reason) throws IOException {
    LOG.warn("Abandoning replay of {}: {}; planning the unit anew", writer.replay.id(), reason);
    writer.log.abandon(writer.replay, "replay differs: " + reason);
    writer.replay = null;
  }

  private void relieveMemory() {
    while (budget.isOver()) {
      if (settleInFlight(true)) {
        continue; // the unit in flight held rows: its bytes are released now
      }
      TpWriter largest = null;
      for (TpWriter writer : writers.values()) {
        if (writer.rotatable()
            && writer.unit.bytes() > 0
            && (largest == null || writer.unit.bytes() > largest.unit.bytes())) {
          largest = writer;
        }
      }
      if (largest == null) {
        pauseForMemory();
        return;
      }
      TpWriter target = largest;
      guarded(target, () -> rotate(target, MEMORY_TRIGGER));
    }
  }

  private void pauseForMemory() {
    List<TopicPartition> pause = new ArrayList<>();
    for (TpWriter writer : writers.values()) {
      if (!writer.replaying() && !writer.fenced && pausedForMemory.add(writer.tp)) {
        pause.add(writer.tp);
      }
    }
    if (!pause.isEmpty()) {
      LOG.info(
          "Buffered {} bytes, over {}={} with only replayed units left; pausing {}",
          budget.bytes(),
          RotationConfig.BUFFER_MAX_BYTES,
          budget.maxBytes(),
          pause);
      context.pause(pause.toArray(new TopicPartition[0]));
    }
  }

  private void resumeWhenUnderBudget() {
    if (!pausedForMemory.isEmpty() && !budget.isOver()) {
      LOG.info(
          "Buffer back under {}; resuming {}", RotationConfig.BUFFER_MAX_BYTES, pausedForMemory);
      context.resume(pausedForMemory.toArray(new TopicPartition[0]));
      pausedForMemory.clear();
    }
  }

  /**
   * Settles the unit in flight, waiting for it when {@code wait}; returns whether one was settled.
   */
  private boolean settleInFlight(boolean wait) {
    if (background == null) {
      return false;
    }
    BackgroundCommit.Settled settled = background.settle(wait);
    if (settled == null) {
      return false;
    }
    guardedSettle(settled);
    return true;
  }

  /**
   * Waits for the unit in flight, releases its bytes and throws its failure: to the caller's guard
   * when it is the caller's TP, else to that TP's own guard (fenced: dropped; storage failure: the
   * task fails).
   */
  private void settleInFlightFor(TpWriter caller) throws IOException {
    BackgroundCommit.Settled settled = background == null ? null : background.settle(true);
    if (settled == null) {
      return;
    }
    budget.release(settled.unit().bytes());
    if (settled.writer() == caller) {
      settled.rethrow();
    } else {
      guarded(settled.writer(), settled::rethrow);
    }
  }

  /**
   * Before TPs close: a failed unit of a closing TP is left to its next owner, who reads it again.
   */
  private void settleBeforeClose(Collection<TopicPartition> partitions) {
    BackgroundCommit.Settled settled = background == null ? null : background.settle(true);
    if (settled == null) {
      return;
    }
    if (settled.failure() != null && partitions.contains(settled.writer().tp)) {
      budget.release(settled.unit().bytes());
      LOG.warn(
          "The last unit of {} was not committed ({}); its next owner reads it again",
          settled.writer().tp,
          settled.failure().toString());
      return;
    }
    guardedSettle(settled);
  }

  private void guardedSettle(BackgroundCommit.Settled settled) {
    budget.release(settled.unit().bytes());
    guarded(settled.writer(), settled::rethrow);
  }

  /** A TP's last committed offset, as far as the task's thread may read it now. */
  private OptionalLong committedEnd(TpWriter writer) {
    return background == null ? writer.committedEnd() : background.committedEnd(writer);
  }

  /** Waits until no unit is in flight (its failure thrown as put would); for tests and tools. */
  void awaitInFlight() {
    settleInFlight(true);
  }

  private interface LakeAction {
    void run() throws IOException;
  }

  /** Runs a step for one TP: a fenced TP is dropped, a storage failure fails the task. */
  private void guarded(TpWriter writer, LakeAction action) {
    try {
      action.run();
    } catch (FencedException e) {
      LOG.warn("{}; dropping its buffered records", e.getMessage());
      budget.release(writer.unit.bytes());
      writer.unit = new UnitBuffer();
      writer.replay = null;
      writer.fenced = true;
    } catch (IOException e) {
      throw new ConnectException(
          "Lake storage failed for " + writer.tp + " in " + parts.storage().location(), e);
    }
  }
}
