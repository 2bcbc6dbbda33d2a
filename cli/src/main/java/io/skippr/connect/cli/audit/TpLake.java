package io.skippr.connect.cli.audit;

import io.skippr.connect.lake.log.AccountedFiles;
import java.util.List;
import java.util.Set;

/**
 * What the lake's log says about one TP, read from its first entry: the committed units of each
 * generation, the pending unit, the live files and where the lake resumes the TP.
 *
 * @param generations every generation in log order; generation 0 first, even when it has no unit
 * @param pending the unit planned but neither committed nor aborted, or null
 * @param liveFiles the keys of the files the log lists as live
 * @param resume where the lake resumes the TP (as a writer opening it would), or null when the log
 *     does not say (no unit yet, or a generation whose start the consumer decides)
 * @param missingEntries sequence numbers below the newest entry that have no entry
 * @param maintenance what compaction, replaced partitions and retention did to the TP's files
 * @param tables the tables the TP's units ever planned files in: where its sink looks for orphans
 */
record TpLake(
    String topic,
    int partition,
    List<Generation> generations,
    Pending pending,
    Set<String> liveFiles,
    Long resume,
    List<Long> missingEntries,
    Maintenance maintenance,
    Set<String> tables) {

  /** TP logs of {@code skippr sync} runs, which have no Kafka topic behind them. */
  static final String SYNC_PREFIX = "sync~";

  TpLake {
    generations = List.copyOf(generations);
    liveFiles = Set.copyOf(liveFiles);
    missingEntries = List.copyOf(missingEntries);
    maintenance = maintenance == null ? Maintenance.NONE : maintenance;
    tables = tables == null ? Set.of() : Set.copyOf(tables);
  }

  /** A TP Kafka has but the lake has no log for. */
  static TpLake absent(String topic, int partition) {
    return new TpLake(
        topic,
        partition,
        List.of(Generation.first(List.of())),
        null,
        Set.of(),
        null,
        List.of(),
        Maintenance.NONE,
        Set.of());
  }

  /** True for the log of a source partition of {@code skippr sync}: offsets are its sequence. */
  boolean isSync() {
    return topic.startsWith(SYNC_PREFIX);
  }

  /** Every file the log accounts for ({@link AccountedFiles}). */
  Set<String> accounted() {
    return AccountedFiles.of(
        liveFiles,
        pending == null ? List.of() : pending.files(),
        maintenance.retired(),
        maintenance.merge() == null ? List.of() : maintenance.merge().outputs());
  }

  /** One committed unit: offsets {@code [start, end]}. */
  record Unit(String id, long start, long end) {}

  /** A unit whose intent has neither a commit nor an abort. */
  record Pending(String id, long start, long end, List<String> files) {
    Pending {
      files = List.copyOf(files);
    }
  }

  /**
   * One generation of the TP's offsets.
   *
   * @param declaredStart the first offset the generation entry names, or -1 when the consumer's
   *     position decides (and for generation 0)
   * @param previousEnd the previous generation's last committed offset as the entry names it
   * @param reason why the generation started, null for generation 0
   * @param units its committed units in log order
   */
  record Generation(
      long number, long declaredStart, long previousEnd, String reason, List<Unit> units) {
    Generation {
      units = List.copyOf(units);
    }

    static Generation first(List<Unit> units) {
      return new Generation(0, -1, -1, null, units);
    }
  }

  /**
   * Lake maintenance as the log records it. Merges and replaced partitions move rows between files
   * but never change the units, so they leave the offset ranges as they are.
   *
   * @param retired files no longer live (merge inputs, replaced or expired files) that the log has
   *     not yet recorded as deleted: storage may still hold them, or not
   * @param merge the merge planned but neither committed nor aborted, or null
   * @param merges how many merges committed
   * @param expiries what retention expired, in log order
   */
  record Maintenance(Set<String> retired, Merge merge, int merges, List<Expiry> expiries) {
    static final Maintenance NONE = new Maintenance(Set.of(), null, 0, List.of());

    Maintenance {
      retired = Set.copyOf(retired);
      expiries = List.copyOf(expiries);
    }
  }

  /** A merge whose intent has neither a commit nor an abort. */
  record Merge(String id, List<String> inputs, List<String> outputs) {
    Merge {
      inputs = List.copyOf(inputs);
      outputs = List.copyOf(outputs);
    }
  }

  /** An {@code expire} entry: retention removed these files from the lake at {@code atMs}. */
  record Expiry(long atMs, List<String> files, String reason) {
    Expiry {
      files = List.copyOf(files);
    }
  }
}
