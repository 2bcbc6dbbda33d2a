package io.skippr.connect.lake.write;

import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.buffer.RotationTriggers;
import io.skippr.connect.lake.log.LakeIdentity;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.metrics.LakeSinkMetrics;
import io.skippr.connect.lake.publish.CommitListener;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the records of the TPs a task owns into committed lake units: open (recover each TP) → put
 * (each TP's {@link TpStateMachine} checks the offset, then the {@link UnitFiller} routes, buffers
 * and cuts) → preCommit (only committed offsets). Called by the task's thread only. Cut units go
 * through the {@link UnitCutter} to the {@link CommitQueue}; the {@link MemoryGovernor} keeps the
 * budget. Records are tracked by their original topic, partition and offset, so topic-renaming
 * transforms cannot break exactly-once.
 */
public final class LakeWriter {
  private static final Logger LOG = LoggerFactory.getLogger(LakeWriter.class);

  /** The metadata of committed consumer offsets: {@code lake=} and the lake's id. */
  public static final String OFFSET_METADATA_PREFIX = "lake=";

  private final WriterSettings settings;
  private final WriterParts parts;
  private final SinkTaskContext context;
  private final LakeLayout layout = new LakeLayout();
  private final LakeIdentity lake;
  private final RotationTriggers triggers;
  private final MemoryGovernor memory;
  private final UnitCutter units;
  private final UnitFiller filler;
  private final OnDiscontinuity onDiscontinuity;
  private final LakeSinkMetrics metrics;
  private final CommitListener listener;
  private final Map<TopicPartition, TpStateMachine> tpStates = new LinkedHashMap<>();

  /** The logs of the open TPs, read by their maintenance on a thread of its own. */
  private final Map<TopicPartition, TpLog> openLogs = new ConcurrentHashMap<>();

  private final TpOpener opener;

  public LakeWriter(WriterSettings settings, WriterParts parts, SinkTaskContext context) {
    this.settings = settings;
    this.parts = parts;
    this.context = context;
    this.triggers = new RotationTriggers(settings.rotation());
    this.memory = new MemoryGovernor(settings.rotation().bufferMaxBytes(), context);
    this.lake = LakeIdentity.establishForWriter(parts.storage(), layout, parts.clock().millis());
    this.metrics = LakeSinkMetrics.of(context, settings.connector(), settings.owner());
    metrics.gauge("buffered-bytes", "Bytes the task buffers now", memory::bytes);
    metrics.gauge(
        "memory-pauses-total",
        "How often the task paused consuming to stay within buffer.max.bytes",
        memory::pauses);
    this.listener = parts.listeners().open(parts.storage(), lake, settings.owner());
    UnitCommitter committer = new UnitCommitter(parts, layout, lake, settings, metrics, listener);
    this.units = new UnitCutter(committer, memory, parts.storage(), settings);
    ErrantRecords errant =
        new ErrantRecords(context.errantRecordReporter(), settings.toleratesErrors());
    RecordRouter router =
        new RecordRouter(parts.converter(), parts.partitioner(), errant, parts.lateWrites());
    this.filler = new UnitFiller(triggers, router, units, memory, parts);
    this.onDiscontinuity = new OnDiscontinuity(settings.onDiscontinuity());
    this.opener = new TpOpener(parts, layout, lake, settings, listener);
  }

  /** The identity of the lake this writer writes to. */
  public LakeIdentity lake() {
    return lake;
  }

  /**
   * Recovers each TP (new epoch, pending intent, orphans) and seeks the consumer where it resumes.
   *
   * @throws io.skippr.connect.lake.log.LogFormatException when a TP's log has an unknown format
   */
  public void open(Collection<TopicPartition> partitions) {
    units.awaitAll();
    for (TopicPartition tp : partitions) {
      close(List.of(tp));
      TpStateMachine tpState = opener.open(tp, metrics);
      tpStates.put(tp, tpState);
      openLogs.put(tp, tpState.log);
      tpState.openedAt.ifPresent(offset -> context.offset(tp, offset));
    }
  }

  /** Buffers the records, cutting every unit whose trigger fires. */
  public void put(Collection<SinkRecord> records) {
    units.takeDone();
    for (SinkRecord record : records) {
      TpStateMachine tpState = tpStateOf(record);
      long offset = record.originalKafkaOffset();
      if (tpState.isOpen() && continues(tpState, offset)) {
        units.guarded(tpState, () -> filler.accept(tpState, record, offset));
        relieveMemory();
      }
    }
    tpStates.values().forEach(TpStateMachine::batchEnded);
    long now = parts.clock().millis();
    for (TpStateMachine tpState : new ArrayList<>(tpStates.values())) {
      String trigger = tpState.rotatable() ? triggers.onClock(tpState.unit(), now) : null;
      if (trigger != null) {
        units.guarded(tpState, () -> units.cut(tpState, trigger));
      }
    }
    memory.resumeWhenUnder(tpStates.values());
  }

  /**
   * The offsets to commit to Kafka: {@code end + 1} of each TP's last committed unit, with the
   * lake's id as metadata. The metadata matters: a seek through the task context makes Connect take
   * the sought offset as already committed (with no metadata) without committing it, and skip any
   * later commit of an equal offset. A TP reopened at the lake's end after its group offset fell
   * behind (a revocation while its last unit was in flight) would keep that stale group offset
   * until more records came; an offset that differs in its metadata is committed.
   */
  public Map<TopicPartition, OffsetAndMetadata> preCommit() {
    Map<TopicPartition, OffsetAndMetadata> offsets = new LinkedHashMap<>();
    units.takeDone(); // never waits: Connect asks again on its next commit
    String metadata = OFFSET_METADATA_PREFIX + lake.id();
    for (TpStateMachine tpState : tpStates.values()) {
      if (tpState.phase() != TpPhase.FENCED) {
        tpState
            .committedOffset()
            .ifPresent(end -> offsets.put(tpState.tp, new OffsetAndMetadata(end + 1, metadata)));
      }
    }
    return offsets;
  }

  /**
   * Cuts every TP's unit and waits until all are committed: a run without Kafka that ends, or a
   * drain. A replay whose source ended before its last record is abandoned, and what it re-read is
   * cut as a unit of its own.
   */
  public void flushAll() {
    for (TpStateMachine tpState : new ArrayList<>(tpStates.values())) {
      units.guarded(
          tpState,
          () -> {
            if (tpState.replay() != null) {
              tpState.abandonReplay("the source ended before the replay's last record");
            }
            units.cut(tpState, "flush");
          });
    }
    units.awaitAll();
  }

  /** Forgets the TPs, dropping what they buffered: their next owner reads it again from Kafka. */
  public void close(Collection<TopicPartition> partitions) {
    for (TopicPartition tp : partitions) {
      TpStateMachine tpState = tpStates.get(tp);
      if (tpState != null && tpState.isOpen()) {
        memory.release(tpState.closing());
      }
    }
    units.awaitAll();
    for (TopicPartition tp : partitions) {
      TpStateMachine tpState = tpStates.remove(tp);
      openLogs.remove(tp);
      if (tpState != null) {
        opener.closed(tpState);
        metrics.close(tp);
        listener.closed(tp);
      }
    }
  }

  /** Closes every TP and stops the threads that write files. */
  public void stop() {
    try {
      close(new ArrayList<>(tpStates.keySet()));
    } finally {
      units.close();
      listener.close();
      metrics.close();
    }
  }

  /**
   * The logs of the TPs this writer has open now, for their maintenance: it appends to them from
   * its own thread (appends are serialised on each log) and stops at a TP's first fencing.
   */
  public Map<TopicPartition, TpLog> openLogs() {
    return Map.copyOf(openLogs);
  }

  /** The task's metrics, which its maintenance reports to as well. */
  public LakeSinkMetrics metrics() {
    return metrics;
  }

  /** The listener told of this writer's changes to the live files; maintenance tells it too. */
  public CommitListener listener() {
    return listener;
  }

  /** Bytes buffered now across all TPs (the task's own accounting). */
  public long bufferedBytes() {
    return memory.bytes();
  }

  /** The most bytes buffered at once since this writer started. */
  public long peakBufferedBytes() {
    return memory.peakBytes();
  }

  /** TPs paused because the buffer budget could not be met by cutting units. */
  public Set<TopicPartition> pausedPartitions() {
    Set<TopicPartition> paused = new LinkedHashSet<>();
    tpStates.values().stream().filter(TpStateMachine::paused).forEach(t -> paused.add(t.tp));
    return Set.copyOf(paused);
  }

  private TpStateMachine tpStateOf(SinkRecord record) {
    TopicPartition tp = new TopicPartition(record.originalTopic(), record.originalKafkaPartition());
    TpStateMachine tpState = tpStates.get(tp);
    if (tpState == null) {
      // Connect opens partitions before delivering them; never drop records if it did not.
      LOG.warn("Records of {} arrived before it was opened; opening it now", tp);
      open(List.of(tp));
      tpState = tpStates.get(tp);
    }
    return tpState;
  }

  /**
   * Whether a delivered record continues its TP where the lake expects ({@link OffsetCheck}): seeks
   * the TP when asked to, and meets offsets the lake cannot account for as configured.
   */
  private boolean continues(TpStateMachine tpState, long offset) {
    OffsetCheck.Step step = tpState.check(offset);
    if (step.notice() != null) {
      LOG.warn("{}", step.notice());
    }
    switch (step.action()) {
      case ACCEPT:
        return true;
      case SEEK:
        LOG.info(
            "Seeking {} to offset {} (offset {} was delivered)", tpState.tp, step.seekTo(), offset);
        context.offset(tpState.tp, step.seekTo());
        return false;
      case DISCONTINUITY:
        units.guarded(
            tpState, () -> onDiscontinuity.meet(tpState, step.discontinuity(), units::cutNow));
        return tpState.isOpen();
      default:
        return false;
    }
  }

  private void relieveMemory() {
    while (memory.isOver()) {
      if (units.awaitAll() || memory.compact(tpStates.values())) {
        continue; // units in flight held rows, or rows were compacted: bytes are free now
      }
      TpStateMachine largest = memory.largest(tpStates.values());
      if (largest == null) {
        memory.pause(tpStates.values());
        return;
      }
      units.guarded(largest, () -> units.cut(largest, RotationConfig.BUFFER_MAX_BYTES));
    }
  }

  /** Waits until no unit is in flight (its failure thrown as put would); for tests and tools. */
  void awaitInFlight() {
    units.awaitAll();
  }
}
