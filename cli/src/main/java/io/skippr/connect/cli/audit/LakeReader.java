package io.skippr.connect.cli.audit;

import io.skippr.connect.cli.audit.Finding.Kind;
import io.skippr.connect.lake.log.CommittedFiles;
import io.skippr.connect.lake.log.CompactionId;
import io.skippr.connect.lake.log.LakeIdentity;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.LogFormatException;
import io.skippr.connect.lake.log.LogHistory;
import io.skippr.connect.lake.log.LogState;
import io.skippr.connect.lake.log.TablePolicyLog;
import io.skippr.connect.lake.log.TableSchemaLog;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
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
  private final LakeLayout layout = new LakeLayout();

  /**
   * The logs and the tables they know.
   *
   * @param liveFiles every file the readable logs list as live, by key
   * @param damaged what makes the sink refuse a TP's log (an entry it cannot read, or entries
   *     written for another lake), by TP; a TP whose log cannot be read has no {@link TpLake} in
   *     {@code logs}
   */
  record Snapshot(
      List<TpLake> logs,
      Set<String> tables,
      Map<String, LiveFile> liveFiles,
      Map<TopicPartition, Finding> damaged) {

    /** True when the TP's log could not be read at all. */
    boolean unreadable(TopicPartition tp) {
      Finding finding = damaged.get(tp);
      return finding != null && finding.kind() == Kind.UNREADABLE_LOG;
    }
  }

  /**
   * The lake's id (null when it has none) and what is wrong with its identity (null if nothing).
   */
  record Identity(String id, Finding problem) {}

  LakeReader(LakeStorage storage) {
    this.storage = storage;
  }

  String location() {
    return storage.location();
  }

  /**
   * The lake's identity: its id, or null and a finding when it has TP logs but no identity, or one
   * that cannot be read.
   */
  Identity identity() throws IOException {
    try {
      return new Identity(LakeIdentity.require(storage, layout).id(), null);
    } catch (LogFormatException e) {
      if (LogHistory.partitions(storage, layout).isEmpty()
          && !storage.exists(layout.identityKey())) {
        return new Identity(null, null); // nothing landed yet
      }
      return new Identity(null, Finding.note(Kind.LAKE_IDENTITY, e.getMessage()));
    }
  }

  /**
   * Reads every TP log whole. A log the sink would refuse is reported: one with an entry that
   * cannot be read is left out, one written for another lake than {@code lakeId} is read.
   */
  Snapshot read(String lakeId) throws IOException {
    List<TpLake> logs = new ArrayList<>();
    Set<String> tables = new TreeSet<>();
    Map<String, LiveFile> live = new HashMap<>();
    Map<TopicPartition, Finding> damaged = new HashMap<>();
    for (LogHistory.Tp tp : LogHistory.partitions(storage, layout)) {
      TopicPartition partition = new TopicPartition(tp.topic(), tp.partition());
      LogHistory history;
      try {
        history = LogHistory.read(storage, layout, tp.topic(), tp.partition());
      } catch (LogFormatException e) {
        damaged.put(partition, Finding.note(Kind.UNREADABLE_LOG, e.getMessage()));
        continue;
      }
      String named = history.state().lake();
      if (named != null && lakeId != null && !named.equals(lakeId)) {
        damaged.put(partition, foreign(named, lakeId));
      }
      logs.add(of(history));
      tables.addAll(history.state().tables());
      live.putAll(history.state().liveFiles());
    }
    return new Snapshot(logs, tables, live, damaged);
  }

  private static Finding foreign(String named, String lakeId) {
    return Finding.note(
        Kind.FOREIGN_LOG,
        "the log was written for lake "
            + named
            + ", but this lake is "
            + lakeId
            + " (its _skippr/lake.json): it was copied from another lake, or lake.json was"
            + " replaced. The sink refuses to open the partition");
  }

  /**
   * Every stored version of a table schema the sink cannot read, as findings: damaged, of a newer
   * format, or of another table.
   */
  List<Finding> schemas() throws IOException {
    TableSchemaLog schemas = new TableSchemaLog(storage, layout);
    return unreadable(layout.schemasPrefix(), Kind.UNREADABLE_SCHEMA, schemas::read);
  }

  /**
   * Every stored version of a table's write policy that cannot be read, as findings: damaged, of a
   * newer format, or of another table.
   */
  List<Finding> policies() throws IOException {
    TablePolicyLog policies = new TablePolicyLog(storage, layout);
    return unreadable(layout.policiesPrefix(), Kind.UNREADABLE_POLICY, policies::read);
  }

  /** Reads one of the lake's versioned documents; refuses a damaged one. */
  private interface Document {
    void read(String key) throws IOException;
  }

  /** The versioned documents under a prefix that cannot be read, as findings of a kind. */
  private List<Finding> unreadable(String prefix, Kind kind, Document document) throws IOException {
    List<Finding> findings = new ArrayList<>();
    for (String key : storage.list(prefix)) {
      if (LakeLayout.seqOf(key) > 0) {
        try {
          document.read(key);
        } catch (LogFormatException e) {
          findings.add(Finding.file(kind, e.getMessage(), key));
        } catch (NoSuchFileException e) {
          // deleted after the listing
        }
      }
    }
    return findings;
  }

  /**
   * Reads every live file storage has, in its table or staged, and compares it with its commit:
   * size and SHA-256.
   *
   * @return the files that differ, as findings by the TP whose log lists them
   */
  Map<TopicPartition, List<Finding>> verify(Snapshot snapshot, Set<String> stored)
      throws IOException {
    Map<TopicPartition, List<Finding>> findings = new HashMap<>();
    for (TpLake log : snapshot.logs()) {
      for (String key : new TreeSet<>(log.liveFiles())) {
        LiveFile file = snapshot.liveFiles().get(key);
        String problem = file == null ? null : problem(file, stored);
        if (problem != null) {
          findings
              .computeIfAbsent(
                  new TopicPartition(log.topic(), log.partition()), t -> new ArrayList<>())
              .add(
                  Finding.file(
                      Kind.CORRUPT_FILE,
                      "the file is not the one its commit recorded: "
                          + problem
                          + "; it was replaced or damaged in storage: restore it from a backup or"
                          + " an earlier version of the object",
                      key));
        }
      }
    }
    return findings;
  }

  /**
   * How a stored file differs from its commit, or null. A live file not in its table may still be
   * staged (moved in right after its commit): it is read there.
   */
  private String problem(LiveFile file, Set<String> stored) throws IOException {
    String key = stored.contains(file.key()) ? file.key() : layout.stagedKey(file.key());
    try {
      return CommittedFiles.problem(file, storage.read(key));
    } catch (NoSuchFileException e) {
      return null; // moved or deleted after the listing, or reported as missing
    }
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
      known.addAll(log.accounted());
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
        CompactionId.writerOf(key).ifPresent(reread::add);
      }
    }
    Set<String> changed = new TreeSet<>();
    Set<String> noLongerLive = new TreeSet<>();
    for (TopicPartition tp : reread) {
      LogState state;
      try {
        state = TpLog.read(storage, layout, tp.topic(), tp.partition()).state();
      } catch (LogFormatException e) {
        continue; // damaged since, or entries missing: the first read's findings stand
      }
      state.accountedFiles().stream()
          .filter(stored::contains)
          .filter(k -> !known.contains(k))
          .forEach(changed::add);
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
        maintenance(history),
        Set.copyOf(state.tables()));
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
