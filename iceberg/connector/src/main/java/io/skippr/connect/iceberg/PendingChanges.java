package io.skippr.connect.iceberg;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The changes not registered yet, in order, registered a round at a time: changes of fenced writers
 * dropped, the others committed table by table, and what could not be committed (or checked) kept
 * for the next round, which waits longer after each failed one.
 */
final class PendingChanges {
  private static final Logger LOG = LoggerFactory.getLogger(PendingChanges.class);
  private static final long MAX_BACKOFF_MS = 60_000;

  private final WriterFence fence;
  private final TableCommits commits;
  private final List<Change> pending = new ArrayList<>();
  private long backoffMs;

  PendingChanges(WriterFence fence, TableCommits commits) {
    this.fence = fence;
    this.commits = commits;
  }

  /** Adds {@code batch} behind what is pending and registers everything it can. */
  void register(List<Change> batch) {
    List<Change> work = new ArrayList<>(pending);
    work.addAll(batch);
    pending.clear();
    WriterFence.Sorted sorted = fence.sort(work);
    pending.addAll(sorted.later());
    LOG.debug("Registering {} change(s), {} left for later", sorted.owned().size(), pending.size());
    Set<Change> failed = commits.commit(sorted.owned());
    // A change of several tables stays whole: registering again is a no-op where it landed.
    for (Change change : sorted.owned()) {
      if (failed.contains(change)) {
        pending.add(change);
      }
    }
    if (failed.isEmpty()) {
      backoffMs = 0;
    } else {
      failed();
    }
  }

  /** A round failed: the next one waits longer. */
  void failed() {
    backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(1_000, backoffMs * 2));
  }

  boolean isEmpty() {
    return pending.isEmpty();
  }

  /** How much longer than the interval the next round waits. */
  long backoffMs() {
    return backoffMs;
  }
}
