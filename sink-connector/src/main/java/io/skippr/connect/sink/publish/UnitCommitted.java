package io.skippr.connect.sink.publish;

import io.skippr.connect.sink.log.LiveFile;
import java.util.List;
import org.apache.kafka.common.TopicPartition;

/**
 * A unit whose commit entry was appended.
 *
 * @param tp the topic-partition
 * @param id the unit's compaction id
 * @param start the unit's first offset
 * @param end the unit's last offset (inclusive)
 * @param epoch the epoch of the writer that committed it
 * @param logSeq the sequence number of its commit entry
 * @param files the unit's files, now live
 */
public record UnitCommitted(
    TopicPartition tp,
    String id,
    long start,
    long end,
    long epoch,
    long logSeq,
    List<LiveFile> files) {
  public UnitCommitted {
    files = List.copyOf(files);
  }
}
