package io.skippr.connect.source.file.engine;

import io.skippr.connect.source.file.commit.CommittedOffsets;
import io.skippr.connect.source.file.metrics.FileSourceMetrics;
import io.skippr.connect.source.file.track.FileEvents;
import io.skippr.connect.source.file.track.TrackedFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The catalog's events turned into log lines, metrics and forgotten per-file state. */
final class TaskEvents implements FileEvents {

  private static final Logger LOG = LoggerFactory.getLogger(TaskEvents.class);

  private final FileSourceMetrics metrics;
  private final CommittedOffsets committed;
  private BatchReader reader;

  TaskEvents(FileSourceMetrics metrics, CommittedOffsets committed) {
    this.metrics = metrics;
    this.committed = committed;
  }

  void reader(BatchReader batchReader) {
    this.reader = batchReader;
  }

  @Override
  public void shrank(TrackedFile file, long size, long offset) {
    metrics.shrunk();
    LOG.warn(
        "{} has {} bytes, fewer than its offset {}: it was truncated or rewritten in place, so it is"
            + " read again from its first byte",
        file,
        size,
        offset);
  }

  @Override
  public void vanished(TrackedFile file) {
    LOG.warn("{} disappeared before it was read to its end (at byte {})", file, file.position());
  }

  @Override
  public void dormant(TrackedFile file) {
    metrics.forgetLag(file.key().id());
  }

  @Override
  public void forgotten(TrackedFile file) {
    committed.unwatch(file.partition());
    metrics.forgetLag(file.key().id());
    if (reader != null) {
      reader.forget(file);
    }
  }
}
