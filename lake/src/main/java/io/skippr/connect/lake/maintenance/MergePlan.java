package io.skippr.connect.lake.maintenance;

import io.skippr.connect.lake.log.LiveFile;
import java.util.List;

/**
 * Live files of one table partition path of one TP to merge into one file.
 *
 * @param id the merge's compaction id, derived from the inputs' ids
 * @param inputs the files, in offset order (the output's rows follow it)
 * @param output the key of the merged file
 * @param keepsDeletes under merge_by_key: whether the output keeps the rows that delete a key, as
 *     an older generation of the path still has live files, which may hold the deleted key
 */
record MergePlan(String id, List<LiveFile> inputs, String output, boolean keepsDeletes) {
  MergePlan {
    inputs = List.copyOf(inputs);
  }

  long inputRows() {
    return inputs.stream().mapToLong(LiveFile::rows).sum();
  }

  List<String> inputKeys() {
    return inputs.stream().map(LiveFile::key).toList();
  }
}
