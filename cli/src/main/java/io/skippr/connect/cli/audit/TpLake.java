package io.skippr.connect.cli.audit;

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
 */
record TpLake(
    String topic,
    int partition,
    List<Generation> generations,
    Pending pending,
    Set<String> liveFiles,
    Long resume,
    List<Long> missingEntries) {

  /** TP logs of {@code skippr sync} runs, which have no Kafka topic behind them. */
  static final String SYNC_PREFIX = "sync~";

  TpLake {
    generations = List.copyOf(generations);
    liveFiles = Set.copyOf(liveFiles);
    missingEntries = List.copyOf(missingEntries);
  }

  /** A TP Kafka has but the lake has no log for. */
  static TpLake absent(String topic, int partition) {
    return new TpLake(
        topic, partition, List.of(Generation.first(List.of())), null, Set.of(), null, List.of());
  }

  /** True for the log of a source partition of {@code skippr sync}: offsets are its sequence. */
  boolean isSync() {
    return topic.startsWith(SYNC_PREFIX);
  }

  /** Every file a unit of this TP is known to write: the live ones and the pending unit's. */
  boolean knows(String key) {
    return liveFiles.contains(key) || (pending != null && pending.files().contains(key));
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
}
