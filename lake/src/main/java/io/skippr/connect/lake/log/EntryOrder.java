package io.skippr.connect.lake.log;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What an entry must agree with in the entries before it, checked as a TP log is read: one lake,
 * epochs that only a claim raises, unit ids of this TP, a commit that does what its intent planned,
 * generations that only grow. A log that breaks one was edited, damaged or assembled from other
 * logs, and is refused.
 */
final class EntryOrder {
  private EntryOrder() {}

  /**
   * @param before the state of the entries before this one
   * @param epochsKnown whether every entry since the log's start or its last checkpoint was read,
   *     so that an entry's epoch must be one claimed before it (false after missing entries)
   * @throws LogFormatException naming what the entry contradicts
   */
  static void check(
      LogState before,
      boolean epochsKnown,
      LogCodec.Stored stored,
      String topic,
      int partition,
      String what) {
    if (stored.lake() != null && before.lake() != null && !before.lake().equals(stored.lake())) {
      throw new LogFormatException(
          what
              + " was written for lake "
              + stored.lake()
              + " but the entries before it for lake "
              + before.lake()
              + ": the log holds entries of two lakes");
    }
    LogEntry entry = stored.entry();
    epochs(before, epochsKnown, entry, what);
    String tp = topic + "+" + partition + "+";
    if (entry instanceof LogEntry.Intent intent) {
      ofThisTp(intent.id(), tp, what);
    } else if (entry instanceof LogEntry.Commit commit) {
      ofThisTp(commit.id(), tp, what);
      before.pending().ifPresent(intent -> commitsIntent(commit, intent, what));
    } else if (entry instanceof LogEntry.Checkpoint checkpoint && checkpoint.lastCommit() != null) {
      ofThisTp(checkpoint.lastCommit().id(), tp, what);
    } else if (entry instanceof LogEntry.Generation next
        && next.generation() <= before.generation()) {
      throw new LogFormatException(
          what
              + " starts generation "
              + next.generation()
              + " but the TP is at generation "
              + before.generation()
              + " already");
    } else if (entry instanceof LogEntry.CompactCommit merge) {
      before.compacting().ifPresent(intent -> commitsMerge(merge, intent, what));
    }
  }

  /** A claim raises the newest epoch; every other entry is of an epoch claimed before it. */
  private static void epochs(LogState before, boolean known, LogEntry entry, String what) {
    if (entry instanceof LogEntry.Epoch claim) {
      if (claim.epoch() <= before.maxEpoch()) {
        throw new LogFormatException(
            what
                + " claims epoch "
                + claim.epoch()
                + ", not above epoch "
                + before.maxEpoch()
                + " claimed before it");
      }
    } else if (entry instanceof LogEntry.Checkpoint checkpoint) {
      if (checkpoint.maxEpoch() < before.maxEpoch()) {
        throw new LogFormatException(
            what
                + " names epoch "
                + checkpoint.maxEpoch()
                + " as the newest, but epoch "
                + before.maxEpoch()
                + " was claimed before it");
      }
    } else if (known && entry.epoch() > before.maxEpoch()) {
      throw new LogFormatException(
          what + " is of epoch " + entry.epoch() + ", which no entry before it claimed");
    }
  }

  private static void ofThisTp(String id, String tp, String what) {
    if (!id.startsWith(tp)) {
      throw new LogFormatException(
          what
              + " names unit "
              + id
              + ", which is not one of "
              + tp.substring(0, tp.length() - 1).replace('+', '-')
              + ": the entry was copied from another partition's log");
    }
  }

  private static void commitsIntent(LogEntry.Commit commit, LogEntry.Intent intent, String what) {
    if (!intent.id().equals(commit.id())) {
      return;
    }
    if (intent.start() != commit.start() || intent.end() != commit.end()) {
      throw new LogFormatException(
          what
              + " commits unit "
              + commit.id()
              + " with offsets "
              + commit.start()
              + ".."
              + commit.end()
              + " but its intent planned "
              + intent.start()
              + ".."
              + intent.end());
    }
    unplanned(keys(commit.files()), intent.files(), "commit of unit " + commit.id(), what);
  }

  private static void commitsMerge(
      LogEntry.CompactCommit merge, LogEntry.CompactIntent intent, String what) {
    if (!intent.id().equals(merge.id())) {
      return;
    }
    if (!Set.copyOf(intent.inputs()).equals(Set.copyOf(merge.inputs()))) {
      throw new LogFormatException(
          what + " commits merge " + merge.id() + " of other inputs than its intent planned");
    }
    unplanned(keys(merge.outputs()), intent.outputs(), "merge " + merge.id(), what);
  }

  private static void unplanned(
      List<String> written, List<String> planned, String unit, String what) {
    Set<String> unplanned = new HashSet<>(written);
    unplanned.removeAll(planned);
    if (!unplanned.isEmpty()) {
      throw new LogFormatException(
          what + ": the " + unit + " lists files its intent did not plan: " + unplanned);
    }
  }

  private static List<String> keys(List<LiveFile> files) {
    return files.stream().map(LiveFile::key).toList();
  }
}
