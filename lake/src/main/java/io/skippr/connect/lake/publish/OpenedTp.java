package io.skippr.connect.lake.publish;

import io.skippr.connect.lake.log.LiveFile;
import java.util.List;
import org.apache.kafka.common.TopicPartition;

/**
 * A TP as its new owner opened it.
 *
 * @param tp the topic-partition
 * @param epoch the epoch this writer claimed
 * @param logSeq the sequence number of the log's newest entry after recovery
 * @param liveFiles every file the TP's log lists as live, of every generation
 */
public record OpenedTp(TopicPartition tp, long epoch, long logSeq, List<LiveFile> liveFiles) {
  public OpenedTp {
    liveFiles = List.copyOf(liveFiles);
  }
}
