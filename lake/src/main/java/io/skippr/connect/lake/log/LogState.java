package io.skippr.connect.lake.log;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/** What a TP log says, folded from its newest checkpoint and the entries after it. */
public final class LogState {
  private long lastSeq = -1;
  private long maxEpoch;
  private CommittedUnit lastCommit;
  private LogEntry.Intent pending;
  private final Map<String, LiveFile> liveFiles = new LinkedHashMap<>();
  private final TreeSet<String> tables = new TreeSet<>();
  private final Map<String, Long> retired = new LinkedHashMap<>();
  private LogEntry.CompactIntent compacting;
  private int entriesSinceCheckpoint;
  private long generation;

  /** Where the current generation starts; null for generation 0 or a consumer-decided start. */
  private Long generationStart;

  /** The lake the entries name; null while none does (entries of older writers). */
  private String lake;

  /** Folds an entry as read, with the lake it names. */
  void apply(long seq, LogCodec.Stored stored, LakeLayout layout) {
    if (stored.lake() != null) {
      lake = stored.lake();
    }
    apply(seq, stored.entry(), layout);
  }

  void apply(long seq, LogEntry entry, LakeLayout layout) {
    lastSeq = seq;
    entriesSinceCheckpoint++;
    maxEpoch = Math.max(maxEpoch, entry.epoch());
    if (entry instanceof LogEntry.Checkpoint checkpoint) {
      applyCheckpoint(checkpoint);
    } else if (entry instanceof LogEntry.Generation next) {
      // Units of the new generation do not continue the old ones; the old files stay live.
      generation = next.generation();
      generationStart = next.startOffset() >= 0 ? next.startOffset() : null;
      lastCommit = null;
      pending = null;
    } else if (!applyUnitEntry(entry, layout)) {
      applyMaintenanceEntry(entry, layout);
    }
  }

  /** Intents, commits and aborts of units; false for any other entry. */
  private boolean applyUnitEntry(LogEntry entry, LakeLayout layout) {
    if (entry instanceof LogEntry.Intent intent) {
      pending = intent;
      intent.files().forEach(key -> tables.add(layout.tableOf(key)));
    } else if (entry instanceof LogEntry.Commit commit) {
      if (pending != null && pending.id().equals(commit.id())) {
        pending = null;
      }
      lastCommit = commit.unit();
      retire(commit.replaces(), commit.replacedDeleteAfterMs());
      commit.files().forEach(file -> liveFiles.put(file.key(), file));
      commit.files().forEach(file -> tables.add(layout.tableOf(file.key())));
    } else if (entry instanceof LogEntry.Abort abort) {
      if (pending != null && pending.id().equals(abort.id())) {
        pending = null;
      }
    } else {
      return false;
    }
    return true;
  }

  /** Compaction, expiry and purge entries. */
  private void applyMaintenanceEntry(LogEntry entry, LakeLayout layout) {
    if (entry instanceof LogEntry.CompactIntent intent) {
      compacting = intent;
      intent.outputs().forEach(key -> tables.add(layout.tableOf(key)));
    } else if (entry instanceof LogEntry.CompactCommit commit) {
      if (compacting != null && compacting.id().equals(commit.id())) {
        compacting = null;
      }
      retire(commit.inputs(), commit.deleteAfterMs());
      commit.outputs().forEach(file -> liveFiles.put(file.key(), file));
    } else if (entry instanceof LogEntry.CompactAbort abort) {
      if (compacting != null && compacting.id().equals(abort.id())) {
        compacting = null;
      }
    } else if (entry instanceof LogEntry.Expire expire) {
      retire(expire.files(), expire.atMs());
    } else if (entry instanceof LogEntry.Purge purge) {
      purge.files().forEach(retired::remove);
    }
  }

  private void applyCheckpoint(LogEntry.Checkpoint checkpoint) {
    maxEpoch = Math.max(maxEpoch, checkpoint.maxEpoch());
    lastCommit = checkpoint.lastCommit();
    pending = null;
    liveFiles.clear();
    checkpoint.liveFiles().forEach(file -> liveFiles.put(file.key(), file));
    tables.addAll(checkpoint.tables());
    retired.clear();
    checkpoint.retired().forEach(file -> retired.put(file.key(), file.deleteAfterMs()));
    compacting = checkpoint.compacting();
    generation = checkpoint.generation();
    generationStart = checkpoint.generationStart();
    entriesSinceCheckpoint = 0;
  }

  /** Live files that leave the live set, deletable from {@code deleteAfterMs}. */
  private void retire(Collection<String> keys, long deleteAfterMs) {
    for (String key : keys) {
      if (liveFiles.remove(key) != null) {
        retired.put(key, deleteAfterMs);
      }
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

  /** Files no longer live and not yet deleted, with when each may be deleted. */
  public Map<String, Long> retired() {
    return Collections.unmodifiableMap(retired);
  }

  /** Every file the log accounts for ({@link AccountedFiles}). */
  public Set<String> accountedFiles() {
    return AccountedFiles.of(
        liveFiles.keySet(),
        pending == null ? List.of() : pending.files(),
        retired.keySet(),
        compacting == null ? List.of() : compacting.outputs());
  }

  /** The merge whose intent has neither a commit nor an abort. */
  public Optional<LogEntry.CompactIntent> compacting() {
    return Optional.ofNullable(compacting);
  }

  public Collection<String> tables() {
    return Collections.unmodifiableSet(tables);
  }

  /** The current generation: 0 until the TP was restarted at offsets the lake cannot continue. */
  public long generation() {
    return generation;
  }

  /**
   * Where the lake resumes this TP: the pending unit's start, else after the last commit of the
   * current generation, else the start of the current generation; empty when the log does not say
   * (a new TP, or a generation whose start the consumer decides).
   */
  public OptionalLong resumeOffset() {
    if (pending != null) {
      return OptionalLong.of(pending.start());
    }
    if (lastCommit != null) {
      return OptionalLong.of(lastCommit.end() + 1);
    }
    return generationStart == null ? OptionalLong.empty() : OptionalLong.of(generationStart);
  }

  /**
   * The id of the lake the entries read were written for; null when none names one (entries of
   * writers that predate it).
   */
  public String lake() {
    return lake;
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
        tables.stream().toList(),
        generation,
        generationStart,
        retired.entrySet().stream()
            .map(e -> new LogEntry.RetiredFile(e.getKey(), e.getValue()))
            .toList(),
        compacting);
  }
}
