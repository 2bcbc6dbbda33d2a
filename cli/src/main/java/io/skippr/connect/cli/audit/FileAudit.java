package io.skippr.connect.cli.audit;

import io.skippr.connect.cli.audit.Finding.Kind;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * Compares the files the logs list with the files storage has: a live file storage lacks is
 * missing; a stored file no log lists is in flight when a unit is writing it (its pending intent
 * names it, or a re-read of the log lists it), else an orphan.
 */
final class FileAudit {
  /** Findings by the TP they belong to, and those of files named for no unit. */
  record Result(Map<TopicPartition, List<Finding>> byTp, List<Finding> unattributed) {
    List<Finding> of(TopicPartition tp) {
      return byTp.getOrDefault(tp, List.of());
    }
  }

  private FileAudit() {}

  /**
   * @param stored the keys storage has under the tables the logs know
   * @param changedDuringAudit stored keys that a re-read of their TP's log, after the listing,
   *     lists as live or pending (units committed or planned while the audit ran)
   */
  static Result audit(Collection<TpLake> logs, Set<String> stored, Set<String> changedDuringAudit) {
    Map<TopicPartition, List<Finding>> byTp = new HashMap<>();
    List<Finding> unattributed = new ArrayList<>();
    Map<String, TpLake> live = new HashMap<>();
    Map<String, TpLake> planned = new HashMap<>();
    for (TpLake log : logs) {
      for (String key : log.liveFiles()) {
        live.put(key, log);
        if (!stored.contains(key)) {
          add(
              byTp,
              log,
              Finding.file(
                  Kind.MISSING_FILE,
                  "the log lists this file as live, but storage does not have it",
                  key));
        }
      }
      if (log.pending() != null) {
        log.pending().files().forEach(key -> planned.put(key, log));
      }
    }
    for (String key : stored) {
      if (live.containsKey(key)) {
        continue;
      }
      TpLake writer = planned.get(key);
      Optional<TopicPartition> named = namedFor(key);
      if (writer != null) {
        add(
            byTp,
            tp(writer),
            Finding.file(Kind.IN_FLIGHT, "written by pending unit " + writer.pending().id(), key));
      } else if (changedDuringAudit.contains(key)) {
        Finding finding =
            Finding.file(Kind.IN_FLIGHT, "committed or planned after the audit read the log", key);
        named.ifPresentOrElse(tp -> add(byTp, tp, finding), () -> unattributed.add(finding));
      } else if (named.isPresent()) {
        add(
            byTp,
            named.get(),
            Finding.file(
                Kind.ORPHAN,
                "no commit lists this file and no unit is writing it: left by a crash or a fenced"
                    + " writer (the sink deletes it when it next opens the partition)",
                key));
      } else {
        unattributed.add(
            Finding.file(
                Kind.ORPHAN,
                "no commit lists this file, and its name is not one a unit of this lake writes",
                key));
      }
    }
    return new Result(byTp, unattributed);
  }

  /**
   * The TP a file's name says wrote it: file names start with the compaction id {@code
   * {topic}+{partition}+...}, and topic names cannot hold {@code +}.
   */
  static Optional<TopicPartition> namedFor(String key) {
    String name = key.substring(key.lastIndexOf('/') + 1);
    int first = name.indexOf('+');
    int second = first < 0 ? -1 : name.indexOf('+', first + 1);
    if (first <= 0 || second < 0) {
      return Optional.empty();
    }
    String partition = name.substring(first + 1, second);
    if (partition.isEmpty()
        || partition.length() > 9
        || !partition.chars().allMatch(Character::isDigit)) {
      return Optional.empty();
    }
    return Optional.of(new TopicPartition(name.substring(0, first), Integer.parseInt(partition)));
  }

  private static void add(Map<TopicPartition, List<Finding>> byTp, TpLake log, Finding finding) {
    add(byTp, tp(log), finding);
  }

  private static void add(
      Map<TopicPartition, List<Finding>> byTp, TopicPartition tp, Finding finding) {
    byTp.computeIfAbsent(tp, t -> new ArrayList<>()).add(finding);
  }

  private static TopicPartition tp(TpLake log) {
    return new TopicPartition(log.topic(), log.partition());
  }
}
