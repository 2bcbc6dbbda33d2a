package io.skippr.connect.source.file.commit;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Kafka has committed of the files this task sends: read back through Connect's offset reader
 * (which sees only committed offsets, transactions included) and mirrored into the state store.
 * Called from {@code SourceTask.commit()} (after an offset flush or a committed transaction) and
 * from idle polls; reads at most once per interval, since each read goes to the offsets topic.
 */
public final class CommittedOffsets {

  private static final Logger LOG = LoggerFactory.getLogger(CommittedOffsets.class);

  private final OffsetMirror mirror;
  private final long minIntervalMs;
  private final LongSupplier clock;
  private final Map<Map<String, Object>, Boolean> watched = new ConcurrentHashMap<>();
  private final Map<Map<String, Object>, Map<String, Object>> committed = new ConcurrentHashMap<>();
  private long lastRefresh = Long.MIN_VALUE / 2;

  public CommittedOffsets(OffsetMirror mirror, long minIntervalMs, LongSupplier clock) {
    this.mirror = mirror;
    this.minIntervalMs = minIntervalMs;
    this.clock = clock;
  }

  /** A record of this partition was sent: its committed offset is wanted. */
  public void watch(Map<String, Object> partition) {
    watched.putIfAbsent(partition, Boolean.TRUE);
  }

  /** The partition's file is completed or forgotten: stop reading its offset. */
  public void unwatch(Map<String, Object> partition) {
    watched.remove(partition);
    committed.remove(partition);
  }

  public boolean watching() {
    return !watched.isEmpty();
  }

  /**
   * Reads the committed offsets of the watched partitions and mirrors them, unless the last read
   * was less than the interval ago.
   *
   * @return true when it read
   */
  public synchronized boolean refresh(OffsetStorageReader reader) {
    long now = clock.getAsLong();
    if (reader == null || watched.isEmpty() || now - lastRefresh < minIntervalMs) {
      return false;
    }
    lastRefresh = now;
    List<Map<String, Object>> partitions = List.copyOf(watched.keySet());
    Map<Map<String, Object>, Map<String, Object>> offsets = reader.offsets(partitions);
    for (Map<String, Object> partition : partitions) {
      Map<String, Object> offset = offsets.get(partition);
      if (offset == null) {
        continue;
      }
      committed.put(partition, offset);
      try {
        mirror.mirror(partition, offset);
      } catch (RuntimeException e) {
        LOG.warn(
            "Cannot mirror the offset of {} into the state store: {}", partition, e.toString());
      }
    }
    return true;
  }

  /** The last committed offset read for the partition, or null. */
  public Map<String, Object> committed(Map<String, Object> partition) {
    return committed.get(partition);
  }
}
