package io.skippr.connect.lake.session;

import io.skippr.connect.lake.maintenance.LakeMaintenance;
import io.skippr.connect.lake.write.LakeWriter;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running writer of the lake with everything it holds: the TPs it owns, their units, the
 * maintenance thread and what the {@link LakeSessionFactory} opened for it. Offsets leave it only
 * through {@link #preCommit}: the end of each TP's last committed unit, never what is merely
 * buffered. Its methods other than {@link #stop} are called by one thread at a time.
 *
 * <p>Threads: the writer's commit thread and file writers ({@code lake-sink-commit-*}, {@code
 * lake-sink-files-*}) and the maintenance thread ({@code skippr-lake-maintenance-*}); all stop with
 * {@link #stop}.
 */
public final class LakeSession {
  private static final Logger LOG = LoggerFactory.getLogger(LakeSession.class);

  private final LakeWriter writer;
  private final LakeMaintenance maintenance;

  /** What the factory opened for this session, closed after the writer stops. */
  private final List<Owned> owned;

  private final String owner;
  private final String location;
  private boolean stopped;

  LakeSession(
      LakeWriter writer,
      LakeMaintenance maintenance,
      List<Owned> owned,
      String owner,
      String location) {
    this.writer = writer;
    this.maintenance = maintenance;
    this.owned = List.copyOf(owned);
    this.owner = owner;
    this.location = location;
  }

  /**
   * Recovers each TP (new epoch, pending intent, orphans) and seeks it where it resumes.
   *
   * @throws io.skippr.connect.lake.log.LogFormatException when a TP's log has an unknown format
   */
  public void open(Collection<TopicPartition> partitions) {
    writer.open(partitions);
  }

  /** Buffers the records, cutting every unit whose trigger fires; an empty put lets clocks cut. */
  public void put(Collection<SinkRecord> records) {
    writer.put(records);
  }

  /** The offsets to commit: {@code end + 1} of each TP's last committed unit. */
  public Map<TopicPartition, OffsetAndMetadata> preCommit() {
    return writer.preCommit();
  }

  /** Forgets the TPs, dropping what they buffered: their next owner reads it again. */
  public void close(Collection<TopicPartition> partitions) {
    writer.close(partitions);
  }

  /** Cuts every TP's unit and waits until all are committed (a run that ends, a drain). */
  public void flush() {
    writer.flushAll();
  }

  /** One maintenance pass now, on the calling thread: a run that ends leaves small files merged. */
  public void maintainNow() {
    maintenance.pass();
  }

  /** Who writes: the connector, host and instance recorded in each TP's epoch. */
  public String owner() {
    return owner;
  }

  /** Where the lake is, for messages. */
  public String location() {
    return location;
  }

  /** The writer, for its buffer accounting in benchmarks and tools. */
  public LakeWriter writer() {
    return writer;
  }

  /**
   * Stops the maintenance, closes every TP, stops the writer's threads, then closes what the
   * factory opened (lease, progress mirror, storage). Only the first call does anything.
   */
  public void stop() {
    if (stopped) {
      return;
    }
    stopped = true;
    try {
      maintenance.close();
      writer.stop();
    } finally {
      closeAll(owned);
    }
  }

  /** Something the factory opened, and what to call it when closing it fails. */
  record Owned(String what, AutoCloseable closeable) {}

  /** Closes each, last opened first, logging (never throwing) what fails: stopping goes on. */
  static void closeAll(List<Owned> owned) {
    for (int i = owned.size() - 1; i >= 0; i--) {
      try {
        owned.get(i).closeable().close();
      } catch (Exception e) {
        LOG.warn("Closing {} failed: {}", owned.get(i).what(), e.toString());
      }
    }
  }
}
