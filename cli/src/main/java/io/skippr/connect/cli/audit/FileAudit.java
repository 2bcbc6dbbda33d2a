package io.skippr.connect.cli.audit;

import io.skippr.connect.cli.audit.Finding.Kind;
import io.skippr.connect.lake.log.CompactionId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * Compares the files the logs list with the files storage has: a live file storage lacks is missing
 * (unless a re-read of its log shows maintenance retired it meanwhile); a stored file no log lists
 * as live is retired when the log says so (a merge's input, a replaced or expired file waiting out
 * its grace), in flight when a unit or a merge is writing it (its intent names it, or a re-read of
 * the log lists it), else an orphan. Retired files storage no longer has were deleted after their
 * grace, as they should be.
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
   * @param reread what a re-read of the logs after the listing says about files the first read did
   *     not account for
   * @param unreadable TPs whose log could not be read: files named for them are not judged
   */
  static Result audit(
      Collection<TpLake> logs,
      Set<String> stored,
      LakeReader.Reread reread,
      Set<TopicPartition> unreadable) {
    Map<TopicPartition, List<Finding>> byTp = new HashMap<>();
    List<Finding> unattributed = new ArrayList<>();
    Map<String, TpLake> accounted = new HashMap<>();
    for (TpLake log : logs) {
      for (String key : log.liveFiles()) {
        if (!stored.contains(key) && !reread.noLongerLive().contains(key)) {
          add(
              byTp,
              tp(log),
              Finding.file(
                  Kind.MISSING_FILE,
                  "the log lists this file as live, but storage does not have it",
                  key));
        }
      }
      log.accounted().forEach(key -> accounted.put(key, log));
    }
    Map<TopicPartition, TpLake> logsByTp = new HashMap<>();
    logs.forEach(log -> logsByTp.put(tp(log), log));
    for (String key : stored) {
      TpLake writer = accounted.get(key);
      Optional<TopicPartition> named = CompactionId.writerOf(key);
      if (writer == null && named.isPresent() && unreadable.contains(named.get())) {
        continue; // its log is reported as unreadable
      }
      if (writer == null || !writer.liveFiles().contains(key)) {
        TpLake namedLog = named.map(logsByTp::get).orElse(null);
        Finding finding = unlisted(key, writer, reread, namedLog);
        if (finding != null) {
          Optional<TopicPartition> owner = writer == null ? named : Optional.of(tp(writer));
          owner.ifPresentOrElse(tp -> add(byTp, tp, finding), () -> unattributed.add(finding));
        }
      }
    }
    return new Result(byTp, unattributed);
  }

  /**
   * What a stored file no log lists as live is; null for a retired one (nothing to report).
   *
   * @param namedLog the log of the TP the file's name says wrote it, or null
   */
  private static Finding unlisted(
      String key, TpLake writer, LakeReader.Reread reread, TpLake namedLog) {
    if (writer != null && writer.maintenance().retired().contains(key)) {
      return null;
    }
    if (writer != null && writer.pending() != null && writer.pending().files().contains(key)) {
      return Finding.file(Kind.IN_FLIGHT, "written by pending unit " + writer.pending().id(), key);
    }
    if (writer != null) {
      return Finding.file(
          Kind.IN_FLIGHT, "written by merge " + writer.maintenance().merge().id(), key);
    }
    if (reread.changed().contains(key)) {
      return Finding.file(Kind.IN_FLIGHT, "committed or planned after the audit read the log", key);
    }
    if (namedLog != null && !namedLog.tables().contains(tableOf(key))) {
      return Finding.file(
          Kind.ORPHAN,
          "no commit lists this file, and its partition's log never wrote to this table: a copy"
              + " or a file put here by hand, which the sink does not delete (delete it once you"
              + " know what it is)",
          key);
    }
    if (CompactionId.writerOf(key).isPresent()) {
      return Finding.file(
          Kind.ORPHAN,
          "no commit lists this file and no unit is writing it: left by a crash or a fenced"
              + " writer (the sink deletes it when it next opens the partition)",
          key);
    }
    return Finding.file(
        Kind.ORPHAN,
        "no commit lists this file, and its name is not one a unit of this lake writes",
        key);
  }

  /** The table of a key relative to the lake's root: its first segment. */
  private static String tableOf(String key) {
    int slash = key.indexOf('/');
    return slash < 0 ? key : key.substring(0, slash);
  }

  private static void add(
      Map<TopicPartition, List<Finding>> byTp, TopicPartition tp, Finding finding) {
    byTp.computeIfAbsent(tp, t -> new ArrayList<>()).add(finding);
  }

  private static TopicPartition tp(TpLake log) {
    return new TopicPartition(log.topic(), log.partition());
  }
}
