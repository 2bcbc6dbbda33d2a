package io.skippr.connect.cli.audit;

import io.skippr.connect.sink.log.LakeIdentity;
import io.skippr.connect.sink.log.LakeLayout;
import io.skippr.connect.sink.log.LogEntry;
import io.skippr.connect.sink.log.LogHistory;
import io.skippr.connect.sink.log.LogState;
import io.skippr.connect.sink.log.TpLog;
import io.skippr.connect.sink.storage.LakeStorage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads the lake for an audit through the sink's own log abstractions: every TP log whole, then the
 * files storage has under the tables the logs know. Reads only.
 */
final class LakeReader {
  /** Most missing sequence numbers listed per log; a log missing more is broken anyway. */
  private static final int MISSING_LISTED = 20;

  private final LakeStorage storage;
  private final LakeLayout layout = new LakeLayout("");

  /** The logs and the tables they know. */
  record Snapshot(List<TpLake> logs, Set<String> tables) {}

  LakeReader(LakeStorage storage) {
    this.storage = storage;
  }

  String location() {
    return storage.location();
  }

  /** The lake's identity, or null when it has none. */
  String identity() throws IOException {
    return LakeIdentity.read(storage, layout).map(LakeIdentity::id).orElse(null);
  }

  Snapshot read() throws IOException {
    List<TpLake> logs = new ArrayList<>();
    Set<String> tables = new TreeSet<>();
    for (LogHistory.Tp tp : LogHistory.partitions(storage, layout)) {
      LogHistory history = LogHistory.read(storage, layout, tp.topic(), tp.partition());
      logs.add(of(history));
      tables.addAll(history.state().tables());
    }
    return new Snapshot(logs, tables);
  }

  /** The keys storage has under the tables. */
  Set<String> stored(Set<String> tables) throws IOException {
    Set<String> keys = new TreeSet<>();
    for (String table : tables) {
      keys.addAll(storage.list(layout.tablePrefix(table)));
    }
    return keys;
  }

  /**
   * What a re-read of the logs after storage was listed says about the files the first read did not
   * account for.
   *
   * @param changed stored keys no log knew that a re-read of the log of the TP the file is named
   *     for lists (live, pending, retired or a merge's output): written while the audit ran
   * @param noLongerLive live files storage lacks that a re-read of their log no longer lists as
   *     live (merged, replaced or expired, and moved out of their table, while the audit ran), or
   *     that are in their table or staged now (a merge's output or a replacing unit's file, moved
   *     into its table right after its commit)
   */
  record Reread(Set<String> changed, Set<String> noLongerLive) {
    static final Reread NONE = new Reread(Set.of(), Set.of());
  }

  /** Re-reads the logs concerned by files the first read did not account for. */
  Reread reread(List<TpLake> logs, Set<String> stored) throws IOException {
    Set<String> known = new HashSet<>();
    Map<TopicPartition, List<String>> gone = new HashMap<>();
    for (TpLake log : logs) {
      known.addAll(log.liveFiles());
      if (log.pending() != null) {
        known.addAll(log.pending().files());
      }
      known.addAll(log.maintenance().retired());
      if (log.maintenance().merge() != null) {
        known.addAll(log.maintenance().merge().outputs());
      }
      for (String key : log.liveFiles()) {
        if (!stored.contains(key)) {
          gone.computeIfAbsent(
                  new TopicPartition(log.topic(), log.partition()), t -> new ArrayList<>())
              .add(key);
        }
      }
    }
    Set<TopicPartition> reread = new HashSet<>(gone.keySet());
    for (String key : stored) {
      if (!known.contains(key)) {
        FileAudit.namedFor(key).ifPresent(reread::add);
      }
    }
    Set<String> changed = new TreeSet<>();
    Set<String> noLongerLive = new TreeSet<>();
    for (TopicPartition tp : reread) {
      LogState state = TpLog.read(storage, layout, tp.topic(), tp.partition()).state();
      Set<String> now = new HashSet<>(state.liveFiles().keySet());
      state.pending().ifPresent(intent -> now.addAll(intent.files()));
      now.addAll(state.retired().keySet());
      state.compacting().ifPresent(merge -> now.addAll(merge.outputs()));
      now.stream().filter(stored::contains).filter(k -> !known.contains(k)).forEach(changed::add);
      for (String key : gone.getOrDefault(tp, List.of())) {
        if (!state.liveFiles().containsKey(key)
            || storage.exists(key)
            || storage.exists(layout.stagedKey(key))) {
          noLongerLive.add(key);
        }
      }
    }
    return new Reread(changed, noLongerLive);
  }

  /** The audit's view of one log: units per generation, the pending unit, the live files. */
  static TpLake of(LogHistory history) {
    List<TpLake.Generation> generations = new ArrayList<>();
    GenerationBuilder current = new GenerationBuilder(0, -1, -1, null);
    List<Long> missing = new ArrayList<>();
    long expected = 0;
    for (LogHistory.Numbered numbered : history.entries()) {
      for (; expected < numbered.seq(); expected++) {
        if (missing.size() < MISSING_LISTED) {
          missing.add(expected);
        }
      }
      expected = numbered.seq() + 1;
      LogEntry entry = numbered.entry();
      if (entry instanceof LogEntry.Commit commit) {
        current.units.add(new TpLake.Unit(commit.id(), commit.start(), commit.end()));
      } else if (entry instanceof LogEntry.Generation next) {
        generations.add(current.build());
        current =
            new GenerationBuilder(
                next.generation(), next.startOffset(), next.previousEnd(), next.reason());
      } else if (entry instanceof LogEntry.Checkpoint checkpoint
          && checkpoint.generation() != current.number) {
        // Only when the entries before a checkpoint are gone: continue in its generation.
        generations.add(current.build());
        current =
            new GenerationBuilder(checkpoint.generation(), -1, -1, "continued from a checkpoint");
      }
    }
    generations.add(current.build());
    LogState state = history.state();
    Optional<LogEntry.Intent> intent = state.pending();
    return new TpLake(
        history.tp().topic(),
        history.tp().partition(),
        generations,
        intent.map(i -> new TpLake.Pending(i.id(), i.start(), i.end(), i.files())).orElse(null),
        state.liveFiles().keySet(),
        state.resumeOffset().isPresent() ? state.resumeOffset().getAsLong() : null,
        missing,
        maintenance(history));
  }

  /**
   * Merges and expiries from the log's entries, retired files and a merge under way from its state.
   */
  private static TpLake.Maintenance maintenance(LogHistory history) {
    int merges = 0;
    List<TpLake.Expiry> expiries = new ArrayList<>();
    for (LogHistory.Numbered numbered : history.entries()) {
      if (numbered.entry() instanceof LogEntry.CompactCommit) {
        merges++;
      } else if (numbered.entry() instanceof LogEntry.Expire expire) {
        expiries.add(new TpLake.Expiry(expire.atMs(), expire.files(), expire.reason()));
      }
    }
    LogState state = history.state();
    TpLake.Merge merge =
        state.compacting().map(m -> new TpLake.Merge(m.id(), m.inputs(), m.outputs())).orElse(null);
    return new TpLake.Maintenance(state.retired().keySet(), merge, merges, expiries);
  }

  private static final class GenerationBuilder {
    private final long number;
    private final long declaredStart;
    private final long previousEnd;
    private final String reason;
    private final List<TpLake.Unit> units = new ArrayList<>();

    GenerationBuilder(long number, long declaredStart, long previousEnd, String reason) {
      this.number = number;
      this.declaredStart = declaredStart;
      this.previousEnd = previousEnd;
      this.reason = reason;
    }

    TpLake.Generation build() {
      return new TpLake.Generation(number, declaredStart, previousEnd, reason, units);
    }
  }
}
