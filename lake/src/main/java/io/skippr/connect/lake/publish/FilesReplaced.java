package io.skippr.connect.lake.publish;

import io.skippr.connect.lake.log.LiveFile;
import java.util.List;
import org.apache.kafka.common.TopicPartition;

/**
 * A compaction committed in the lake: its inputs are retired and its output is live, in one log
 * entry, so a catalog applies both in one atomic change.
 *
 * @param tp the topic-partition whose units were compacted
 * @param id the compaction's id (deterministic from its inputs' ids): the key that makes the change
 *     idempotent
 * @param removed the retired input files
 * @param added the output files
 * @param epoch the epoch of the writer that committed the compaction
 * @param logSeq the sequence number of the compaction's commit entry
 * @param merged true when the output holds the current state by key (merge-by-key: rows were
 *     dropped), false when it holds exactly the inputs' rows
 */
public record FilesReplaced(
    TopicPartition tp,
    String id,
    List<LiveFile> removed,
    List<LiveFile> added,
    long epoch,
    long logSeq,
    boolean merged) {
  public FilesReplaced {
    removed = List.copyOf(removed);
    added = List.copyOf(added);
  }
}
