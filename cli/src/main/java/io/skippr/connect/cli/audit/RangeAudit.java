package io.skippr.connect.cli.audit;

import io.skippr.connect.cli.audit.Finding.Kind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import org.apache.kafka.common.TopicPartition;

/**
 * Compares one TP's committed offset ranges with each other and with Kafka: overlaps, holes between
 * units (a gap when Kafka holds records there, nothing when they are transaction markers, aborted
 * or compacted records, expired when Kafka no longer holds them), lag and the group's offset.
 *
 * <p>Generations: a generation that starts past where the previous one ended leaves a hole that is
 * checked like any other; one that starts at or below it (a recreated topic, a consumer moved back)
 * restarts the comparison, and earlier generations are only checked for overlaps.
 */
final class RangeAudit {
  private final RecordProbe probe;

  RangeAudit(RecordProbe probe) {
    this.probe = probe;
  }

  /** What the audit of one TP found. */
  record Result(
      List<TpReport.Range> ranges,
      List<Finding> findings,
      TpReport.Kafka kafka,
      int holesWithoutRecords) {}

  /** Offsets {@code [start, end]} in no unit, and what lies on either side, for messages. */
  private record Hole(long start, long end, long generation, String where) {}

  /**
   * Audits one TP.
   *
   * @param kafka what Kafka holds of it; null for sync logs and topics Kafka does not have
   * @param group the connector group's committed offset, or null
   */
  Result audit(TpLake lake, KafkaTp kafka, Long group) {
    List<Finding> findings = new ArrayList<>();
    List<TpReport.Range> ranges = new ArrayList<>();
    List<Hole> holes = holes(lake, ranges, findings);
    int empty = 0;
    if (!lake.isSync() && kafka == null) {
      findings.add(
          Finding.note(
              Kind.TOPIC_MISSING,
              "Kafka has no partition "
                  + lake.topic()
                  + "-"
                  + lake.partition()
                  + " (was the topic deleted?): the lake's units were checked for overlaps only"
                  + (holes.isEmpty()
                      ? ""
                      : "; " + holes.size() + " hole(s) between them could not be checked")));
    } else {
      for (Hole hole : holes) {
        empty += check(lake, kafka, hole, findings) ? 1 : 0;
      }
    }
    if (lake.pending() != null) {
      TpLake.Pending unit = lake.pending();
      findings.add(
          Finding.range(
              Kind.PENDING,
              "unit "
                  + unit.id()
                  + " ("
                  + unit.start()
                  + ".."
                  + unit.end()
                  + ") is planned but not committed: being written, or left by a crash (the sink"
                  + " replays it when it opens the partition)",
              unit.start(),
              unit.end(),
              null));
    }
    if (!lake.missingEntries().isEmpty()) {
      findings.add(
          Finding.note(
              Kind.LOG_ENTRIES_MISSING,
              "the log has no entries " + lake.missingEntries() + " below its newest entry"));
    }
    TpReport.Kafka kafkaReport = kafka == null ? null : tail(lake, kafka, group, findings);
    return new Result(ranges, findings, kafkaReport, empty);
  }

  /** The ranges of each generation, overlaps and generation notes; returns the holes to check. */
  private static List<Hole> holes(TpLake lake, List<TpReport.Range> ranges, List<Finding> out) {
    List<Hole> holes = new ArrayList<>();
    Long chainEnd = null;
    for (TpLake.Generation gen : lake.generations()) {
      List<TpLake.Unit> units = sorted(gen.units());
      ranges.add(range(gen, units));
      Long start = startOf(gen, units);
      if (gen.number() == 0) {
        if (start != null && start > 0) {
          holes.add(new Hole(0, start - 1, 0, "below the lake's first unit"));
        }
      } else if (start == null || chainEnd == null || start <= chainEnd) {
        out.add(Finding.note(Kind.GENERATION, restartNote(gen, start, chainEnd)));
        holes.clear();
        chainEnd = start == null ? null : start - 1;
      } else {
        out.add(
            Finding.note(
                Kind.GENERATION,
                "generation "
                    + gen.number()
                    + " starts at offset "
                    + start
                    + " after generation "
                    + (gen.number() - 1)
                    + " ended at "
                    + chainEnd
                    + ": "
                    + gen.reason()));
        if (start > chainEnd + 1) {
          holes.add(
              new Hole(
                  chainEnd + 1,
                  start - 1,
                  gen.number(),
                  "between generation "
                      + (gen.number() - 1)
                      + " and generation "
                      + gen.number()
                      + " ("
                      + gen.reason()
                      + ")"));
        }
      }
      if (gen.declaredStart() >= 0 && !units.isEmpty() && units.get(0).start() > start) {
        holes.add(
            new Hole(
                start,
                units.get(0).start() - 1,
                gen.number(),
                "between the start of generation " + gen.number() + " and its first unit"));
      }
      Long end = withinGeneration(lake, gen.number(), units, holes, out);
      chainEnd = end != null ? end : chainEnd;
    }
    return holes;
  }

  /** Overlaps and holes between the units of one generation; returns its last offset. */
  private static Long withinGeneration(
      TpLake lake, long generation, List<TpLake.Unit> units, List<Hole> holes, List<Finding> out) {
    Long end = null;
    TpLake.Unit reaching = null;
    for (TpLake.Unit unit : units) {
      if (end != null && unit.start() <= end) {
        long last = Math.min(unit.end(), end);
        out.add(
            Finding.range(
                Kind.OVERLAP,
                "units "
                    + reaching.id()
                    + " and "
                    + unit.id()
                    + " both hold "
                    + offsets(lake)
                    + " "
                    + unit.start()
                    + ".."
                    + last
                    + ": their rows are in the lake twice",
                unit.start(),
                last,
                generation));
      } else if (end != null && unit.start() > end + 1) {
        holes.add(new Hole(end + 1, unit.start() - 1, generation, "in generation " + generation));
      }
      if (end == null || unit.end() > end) {
        end = unit.end();
        reaching = unit;
      }
    }
    return end;
  }

  /**
   * Classifies one hole; returns true when Kafka showed it holds no record.
   *
   * @param kafka null for sync logs, where every hole is a gap
   */
  private boolean check(TpLake lake, KafkaTp kafka, Hole hole, List<Finding> out) {
    if (lake.isSync()) {
      out.add(
          Finding.range(
              Kind.GAP,
              "sequence numbers " + span(hole) + " " + hole.where() + " are in no unit",
              hole.start(),
              hole.end(),
              hole.generation()));
      return false;
    }
    long start = hole.start();
    long end = Math.min(hole.end(), kafka.end() - 1);
    if (start < kafka.logStart() && start <= end) {
      long expiredEnd = Math.min(end, kafka.logStart() - 1);
      out.add(expired(start, expiredEnd, kafka, hole.where(), hole.generation()));
      start = expiredEnd + 1;
    }
    end = Math.min(end, kafka.stableEnd() - 1);
    if (start > end) {
      return false;
    }
    RecordProbe.Result found = probe.firstRecord(tp(lake), start, end);
    switch (found.outcome()) {
      case FOUND -> {
        out.add(
            Finding.range(
                    Kind.GAP,
                    "offsets "
                        + start
                        + ".."
                        + end
                        + " "
                        + hole.where()
                        + " are in no unit, but Kafka holds records there (the first at "
                        + found.offset()
                        + ")",
                    start,
                    end,
                    hole.generation())
                .withFirstRecord(found.offset()));
        return false;
      }
      case NONE -> {
        return true;
      }
      default -> {
        out.add(unchecked(start, end, found.why(), hole.generation()));
        return false;
      }
    }
  }

  /** After the lake's last unit: expiry, lag, and a group offset past the lake. */
  private TpReport.Kafka tail(TpLake lake, KafkaTp kafka, Long group, List<Finding> out) {
    Long next = lake.resume();
    if (next != null && next > kafka.end()) {
      out.add(
          Finding.note(
              Kind.KAFKA_BEHIND_LAKE,
              "the lake resumes at offset "
                  + next
                  + " but Kafka ends at "
                  + kafka.end()
                  + ": the topic was recreated or truncated; the sink fails on opening the"
                  + " partition, or starts a new generation with"
                  + " behavior.on.offset.discontinuity=new_generation"));
      return report(kafka, 0);
    }
    long from = next == null ? kafka.logStart() : next;
    if (from < kafka.logStart()) {
      out.add(expired(from, kafka.logStart() - 1, kafka, "after the lake's last unit", null));
      from = kafka.logStart();
    }
    if (from >= kafka.stableEnd()) {
      return report(kafka, 0);
    }
    RecordProbe.Result found = probe.firstRecord(tp(lake), from, kafka.stableEnd() - 1);
    if (found.outcome() == RecordProbe.Outcome.UNKNOWN) {
      out.add(unchecked(from, kafka.stableEnd() - 1, found.why(), null));
      return report(kafka, 0);
    }
    if (found.outcome() == RecordProbe.Outcome.NONE) {
      return report(kafka, 0);
    }
    long first = found.offset();
    long lag = kafka.end() - first;
    out.add(
        Finding.range(
                Kind.LAG,
                "Kafka holds records from offset "
                    + first
                    + " on that the lake does not hold yet ("
                    + lag
                    + " offsets up to its end at "
                    + kafka.end()
                    + ")",
                first,
                kafka.end() - 1,
                null)
            .withFirstRecord(first));
    if (group != null && group > first) {
      out.add(
          Finding.range(
                  Kind.GROUP_AHEAD,
                  "the group's committed offset "
                      + group
                      + " is past the lake, which "
                      + (next == null ? "holds nothing of this partition" : "resumes at " + next)
                      + ": records from offset "
                      + first
                      + " to "
                      + (group - 1)
                      + " are in no unit, and a consumer resuming from the group skips them",
                  first,
                  group - 1,
                  null)
              .withFirstRecord(first));
    }
    return report(kafka, lag);
  }

  private static TpReport.Kafka report(KafkaTp kafka, long lag) {
    return new TpReport.Kafka(kafka.logStart(), kafka.end(), kafka.stableEnd(), lag);
  }

  private static Finding expired(
      long start, long end, KafkaTp kafka, String where, Long generation) {
    return Finding.range(
        Kind.EXPIRED,
        "offsets "
            + start
            + ".."
            + end
            + " "
            + where
            + " are in no unit, and Kafka no longer holds them (its log starts at "
            + kafka.logStart()
            + "): they expired or were deleted before they landed",
        start,
        end,
        generation);
  }

  private static Finding unchecked(long start, long end, String why, Long generation) {
    return Finding.range(
        Kind.UNCHECKED,
        "offsets " + start + ".." + end + " could not be checked: " + why,
        start,
        end,
        generation);
  }

  private static String restartNote(TpLake.Generation gen, Long start, Long chainEnd) {
    String where =
        start == null
            ? "wherever the consumer stood"
            : "offset " + start + (chainEnd == null ? "" : ", not after " + chainEnd + ",");
    return "generation "
        + gen.number()
        + " starts at "
        + where
        + " where the lake had no earlier units to continue: "
        + gen.reason()
        + "; earlier generations are checked for overlaps only";
  }

  /** The first offset of a generation: the one its entry declares, else its first unit's. */
  private static Long startOf(TpLake.Generation gen, List<TpLake.Unit> units) {
    if (gen.declaredStart() >= 0) {
      return gen.declaredStart();
    }
    return units.isEmpty() ? null : units.get(0).start();
  }

  private static TpReport.Range range(TpLake.Generation gen, List<TpLake.Unit> units) {
    Long start = units.isEmpty() ? null : units.get(0).start();
    Long end = units.stream().map(TpLake.Unit::end).max(Long::compare).orElse(null);
    return new TpReport.Range(gen.number(), start, end, units.size(), gen.reason());
  }

  /** Units by offset; a unit committed twice under one id is the same files, counted once. */
  private static List<TpLake.Unit> sorted(List<TpLake.Unit> units) {
    List<TpLake.Unit> sorted = new ArrayList<>(new LinkedHashSet<>(units));
    sorted.sort(Comparator.comparingLong(TpLake.Unit::start).thenComparingLong(TpLake.Unit::end));
    return sorted;
  }

  private static String span(Hole hole) {
    return hole.start() + ".." + hole.end();
  }

  private static String offsets(TpLake lake) {
    return lake.isSync() ? "sequence numbers" : "offsets";
  }

  private static TopicPartition tp(TpLake lake) {
    return new TopicPartition(lake.topic(), lake.partition());
  }
}
