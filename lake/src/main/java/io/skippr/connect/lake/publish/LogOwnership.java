package io.skippr.connect.lake.publish;

import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LogCodec;
import io.skippr.connect.lake.log.LogFormatException;
import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether a writer still owns a TP, read from the lake log: a newer writer's claim is an {@code
 * epoch} entry after the entries this writer knows of. Reads forward from the newest entry it
 * checked, one entry at a time (the log is linear: no writer can append past a missing sequence
 * number), so a check usually costs one read of an absent entry. Not thread-safe.
 */
public final class LogOwnership {
  private final LakeStorage storage;
  private final LakeLayout layout = new LakeLayout();
  private final Map<TopicPartition, Long> checkedSeq = new HashMap<>();
  private final Map<TopicPartition, Long> newestEpoch = new HashMap<>();

  public LogOwnership(LakeStorage storage) {
    this.storage = storage;
  }

  /**
   * True when no entry after {@code knownSeq} (the newest entry the writer of {@code epoch} knew
   * of) claims the TP with a newer epoch.
   *
   * @throws IOException when the log cannot be read: ownership is unknown then
   */
  public boolean owns(TopicPartition tp, long epoch, long knownSeq) throws IOException {
    long seq = Math.max(knownSeq, checkedSeq.getOrDefault(tp, -1L));
    long newest = newestEpoch.getOrDefault(tp, 0L);
    while (newest <= epoch) {
      String key = layout.entryKey(tp.topic(), tp.partition(), seq + 1);
      byte[] bytes;
      try {
        bytes = storage.read(key);
      } catch (NoSuchFileException e) {
        break;
      }
      try {
        newest = Math.max(newest, LogCodec.decode(bytes, storage.location() + key).epoch());
      } catch (LogFormatException e) {
        newest = Long.MAX_VALUE; // a writer of a newer format appended: as TpLog, fenced
      }
      seq++;
    }
    checkedSeq.put(tp, seq);
    newestEpoch.put(tp, newest);
    return newest <= epoch;
  }
}
