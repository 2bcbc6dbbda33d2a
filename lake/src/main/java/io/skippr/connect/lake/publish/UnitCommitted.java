package io.skippr.connect.lake.publish;

import io.skippr.connect.lake.log.LiveFile;
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
 * @param retired the older files the commit retired ({@code write.policy=replace_partition}: the
 *     TP's files of the paths the unit writes), empty otherwise; a catalog replaces them by {@code
 *     files} in one change
 */
public record UnitCommitted(
    TopicPartition tp,
    String id,
    long start,
    long end,
    long epoch,
    long logSeq,
    List<LiveFile> files,
    List<LiveFile> retired) {
  public UnitCommitted {
    files = List.copyOf(files);
    retired = List.copyOf(retired);
  }

  /** A commit that retires nothing. */
  public UnitCommitted(
      TopicPartition tp,
      String id,
      long start,
      long end,
      long epoch,
      long logSeq,
      List<LiveFile> files) {
    this(tp, id, start, end, epoch, logSeq, files, List.of());
  }
}
