package io.skippr.connect.cli.sync;

import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.ProgressMirror;
import io.skippr.connect.lake.log.SinkProgress;
import io.skippr.connect.state.connect.SourceOffsetMirror;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * After each committed unit of a run without Kafka, writes the source offset of its last record
 * into the state store (Connect's encoding, as the source reads it back), and only then: the store
 * never runs ahead of the lake. The lake sink's own progress mirror goes on as under Connect.
 */
final class SyncOffsets implements ProgressMirror {
  private final ProgressMirror progress;
  private final SyncRecords records;
  private final SourceOffsetMirror offsets;
  private final BiConsumer<SinkProgress, LogEntry.SourcePosition> committed;

  /**
   * @param committed told each committed unit and the source position it ends at
   */
  SyncOffsets(
      ProgressMirror progress,
      SyncRecords records,
      SourceOffsetMirror offsets,
      BiConsumer<SinkProgress, LogEntry.SourcePosition> committed) {
    this.progress = progress;
    this.records = records;
    this.offsets = offsets;
    this.committed = committed;
  }

  @Override
  public Optional<SinkProgress> lookup(String topic, int partition) {
    return progress.lookup(topic, partition);
  }

  @Override
  public void record(SinkProgress unit) {
    progress.record(unit);
    LogEntry.SourcePosition position =
        records.committed(new TopicPartition(unit.topic(), unit.partition()), unit.endOffset());
    if (position != null) {
      offsets.mirror(position.partition(), position.offset());
    }
    committed.accept(unit, position);
  }

  @Override
  public void forget(String topic, int partition) {
    progress.forget(topic, partition);
  }
}
