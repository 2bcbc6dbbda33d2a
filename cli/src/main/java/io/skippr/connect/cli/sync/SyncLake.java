package io.skippr.connect.cli.sync;

import io.skippr.connect.common.Messages;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.SinkProgress;
import io.skippr.connect.lake.session.LakeSession;
import io.skippr.connect.lake.session.LakeSessionFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The lake side of a run: its {@link LakeSession}, fed the source's records as sink records of the
 * pipeline's TPs ({@link SyncRecords}), with source offsets stored after each commit ({@link
 * SyncOffsets}) and rejected records kept ({@link SyncRejections}). One lock guards the session:
 * the engine's tasks deliver, the ticker ticks, the run drains. Records are taken from the start
 * until the drain; what is delivered after it is read again by the next run (its offsets were never
 * stored).
 */
final class SyncLake implements AutoCloseable {
  private final Object lock = new Object();
  private final SyncRecords records;
  private final SyncRejections rejections;
  private final SyncFailure failure;
  private final SyncOutput output;
  private final AtomicLong delivered = new AtomicLong();
  private final AtomicLong units = new AtomicLong();
  private final LakeSession session;
  private volatile boolean draining;

  /** Opens the session over the run's lake and opens the TPs of the partitions it knows. */
  SyncLake(SyncState state, SyncState.Resume resume, SyncFailure failure, SyncOutput output) {
    SyncPipeline pipeline = state.pipeline();
    this.failure = failure;
    this.output = output;
    this.records = new SyncRecords(pipeline.logTopic(), state.partitions(), this::opened);
    resume.next().forEach(records::continueAt);
    this.rejections = new SyncRejections(state.lake(), pipeline.name(), records);
    Map<String, String> props = pipeline.lakeProps();
    this.session =
        LakeSessionFactory.of(state.lakeConfig(), props)
            .onStorage(state.lake())
            .mirroringThrough(
                progress -> new SyncOffsets(progress, records, state.offsets(), this::committed))
            .withSourcePositions(records)
            .maintenanceNamed("sync-" + pipeline.name())
            .withoutMaintenanceLease() // the run's own lease covers the pipeline's lake
            .start(new SyncTaskContext(props, this::rejected));
    try {
      session.open(resume.next().keySet().stream().map(records::tp).toList());
    } catch (RuntimeException e) {
      session.stop();
      throw e;
    }
  }

  /** Converts and writes one batch of a task; dropped once draining. */
  void deliver(List<SourceRecord> batch, List<SourceAck> acks) {
    synchronized (lock) {
      if (draining) {
        return; // the next run reads these again (their offsets were not written)
      }
      failure.throwIfFailed();
      long now = System.currentTimeMillis();
      List<SinkRecord> sink = new ArrayList<>(batch.size());
      for (int i = 0; i < batch.size(); i++) {
        sink.add(records.toSink(batch.get(i), now, acks.get(i)));
      }
      delivered.addAndGet(batch.size());
      session.put(sink);
    }
  }

  /** Lets clock triggers cut units while the source is quiet, and surfaces commit failures. */
  void tick() {
    try {
      synchronized (lock) {
        if (!draining && !failure.failed()) {
          session.put(List.of());
        }
      }
    } catch (RuntimeException e) {
      failure.fail("the lake writer failed: " + Messages.oneLine(e));
    }
  }

  /**
   * Takes no more records (after any put in progress) and commits everything buffered. Called while
   * the engine runs, so that it lets the tasks commit what the lake now holds.
   */
  void drain() {
    synchronized (lock) {
      draining = true;
      failure.throwIfFailed();
      session.flush();
    }
  }

  /** Whether the run drains: the source stopping now is no failure. */
  boolean draining() {
    return draining;
  }

  /** A maintenance pass now: a scheduled run leaves its small files merged. */
  void maintainNow() {
    session.maintainNow();
  }

  /** Throws when the lake rejected records: the run fails, naming where they were kept. */
  void throwIfRejected() {
    if (rejections.count() > 0) {
      throw new SyncException(
          rejections.count() + " record(s) rejected by the lake, kept in " + rejections.location());
    }
  }

  long delivered() {
    return delivered.get();
  }

  long units() {
    return units.get();
  }

  /** Stops the session (after any put in progress); the run's state closes the lake itself. */
  @Override
  public void close() {
    synchronized (lock) {
      session.stop();
    }
  }

  /** A source partition seen for the first time: its TP log is opened before its first record. */
  private void opened(int partition) {
    session.open(List.of(records.tp(partition)));
  }

  private void committed(SinkProgress unit, LogEntry.SourcePosition position) {
    units.incrementAndGet();
    output.unitCommitted(
        unit.compactionId(),
        unit.endOffset(),
        position == null ? Map.of() : position.offset(),
        delivered.get());
  }

  private void rejected(SinkRecord record, Throwable error) {
    output.rejected(rejections.keep(record, error), Messages.oneLine(error));
  }
}
