package io.skippr.connect.lake.publish;

import io.skippr.connect.lake.log.LiveFile;
import java.util.List;
import org.apache.kafka.common.TopicPartition;

/**
 * Retention removed files from the lake's live files.
 *
 * @param tp the topic-partition the files belong to
 * @param id the expire entry's id: the key that makes the change idempotent
 * @param removed the files no longer live
 * @param epoch the epoch of the writer that appended the expire entry
 * @param logSeq the sequence number of the expire entry
 */
public record FilesExpired(
    TopicPartition tp, String id, List<LiveFile> removed, long epoch, long logSeq) {
  public FilesExpired {
    removed = List.copyOf(removed);
  }
}
