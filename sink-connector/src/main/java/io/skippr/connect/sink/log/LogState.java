package io.skippr.connect.sink.log;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/** What a TP log says, folded from its newest checkpoint and the entries after it. */
public final class LogState {
  private long lastSeq = -1;
  private long maxEpoch;
  private CommittedUnit lastCommit;
  private LogEntry.Intent pending;
  private final Map<String, LiveFile> liveFiles = new LinkedHashMap<>();
  private final TreeSet<String> tables = new TreeSet<>();
  private int entriesSinceCheckpoint;

  void apply(long seq, LogEntry entry, LakeLayout layout) {
    lastSeq = seq;
    entriesSinceCheckpoint++;
    maxEpoch = Math.max(maxEpoch, entry.epoch());
    if (entry instanceof LogEntry.Intent intent) {
      pending = intent;
      intent.files().forEach(key -> tables.add(layout.tableOf(key)));
    } else if (entry instanceof LogEntry.Commit commit) {
      if (pending != null && pending.id().equals(commit.id())) {
        pending = null;
      }
      lastCommit = commit.unit();
      commit.files().forEach(file -> liveFiles.put(file.key(), file));
      commit.files().forEach(file -> tables.add(layout.tableOf(file.key())));
    } else if (entry instanceof LogEntry.Abort abort) {
      if (pending != null && pending.id().equals(abort.id())) {
        pending = null;
      }
    } else if (entry instanceof LogEntry.Checkpoint checkpoint) {
      maxEpoch = Math.max(maxEpoch, checkpoint.maxEpoch());
      lastCommit = checkpoint.lastCommit();
      pending = null;
      liveFiles.clear();
      checkpoint.liveFiles().forEach(file -> liveFiles.put(file.key(), file));
      tables.addAll(checkpoint.tables());
      entriesSinceCheckpoint = 0;
    }
  }

  /** Sequence number of the newest entry, -1 for an empty log. */
  public long lastSeq() {
    return lastSeq;
  }

  public long maxEpoch() {
    return maxEpoch;
  }

  public Optional<CommittedUnit> lastCommit() {
    return Optional.ofNullable(lastCommit);
  }

  /** The newest intent that has neither a commit nor an abort. */
  public Optional<LogEntry.Intent> pending() {
    return Optional.ofNullable(pending);
  }

  public Map<String, LiveFile> liveFiles() {
    return Collections.unmodifiableMap(liveFiles);
  }

  public Collection<String> tables() {
    return Collections.unmodifiableSet(tables);
  }

  public int entriesSinceCheckpoint() {
    return entriesSinceCheckpoint;
  }

  LogEntry.Checkpoint checkpoint(long epoch) {
    return new LogEntry.Checkpoint(
        epoch,
        maxEpoch,
        lastCommit,
        liveFiles.values().stream().toList(),
        tables.stream().toList());
  }
}
