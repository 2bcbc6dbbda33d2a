package io.skippr.connect.cli.audit;

import io.skippr.connect.cli.audit.Finding.Kind;

/** The words of what the audit of a TP's offset ranges finds: one factory per finding. */
final class RangeFindings {

  private RangeFindings() {}

  static Finding topicMissing(TpLake lake, int holes) {
    return Finding.note(
        Kind.TOPIC_MISSING,
        "Kafka has no partition "
            + lake.topic()
            + "-"
            + lake.partition()
            + " (was the topic deleted?): the lake's units were checked for overlaps only"
            + (holes == 0 ? "" : "; " + holes + " hole(s) between them could not be checked"));
  }

  static Finding pending(TpLake.Pending unit) {
    return Finding.range(
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
        null);
  }

  static Finding logEntriesMissing(TpLake lake) {
    return Finding.note(
        Kind.LOG_ENTRIES_MISSING,
        "the log has no entries " + lake.missingEntries() + " below its newest entry");
  }

  /** A generation that continues the one before it, past where it ended. */
  static Finding generationAfter(TpLake.Generation gen, long start, long previousEnd) {
    return Finding.note(
        Kind.GENERATION,
        "generation "
            + gen.number()
            + " starts at offset "
            + start
            + " after generation "
            + (gen.number() - 1)
            + " ended at "
            + previousEnd
            + ": "
            + gen.reason());
  }

  /** A generation that starts at or below where the one before it ended, or anywhere. */
  static Finding generationRestart(TpLake.Generation gen, Long start, Long previousEnd) {
    String where =
        start == null
            ? "wherever the consumer stood"
            : "offset " + start + (previousEnd == null ? "" : ", not after " + previousEnd + ",");
    return Finding.note(
        Kind.GENERATION,
        "generation "
            + gen.number()
            + " starts at "
            + where
            + " where the lake had no earlier units to continue: "
            + gen.reason()
            + "; earlier generations are checked for overlaps only");
  }

  static Finding overlap(
      TpLake lake, TpLake.Unit reaching, TpLake.Unit unit, long last, long generation) {
    return Finding.range(
        Kind.OVERLAP,
        "units "
            + reaching.id()
            + " and "
            + unit.id()
            + " both hold "
            + (lake.isSync() ? "sequence numbers" : "offsets")
            + " "
            + unit.start()
            + ".."
            + last
            + ": their rows are in the lake twice",
        unit.start(),
        last,
        generation);
  }

  /** A hole of a sync log: sequence numbers are dense, so every hole is a gap. */
  static Finding syncGap(OffsetHole hole) {
    return Finding.range(
        Kind.GAP,
        "sequence numbers "
            + hole.start()
            + ".."
            + hole.end()
            + " "
            + hole.where()
            + " are in no unit",
        hole.start(),
        hole.end(),
        hole.generation());
  }

  static Finding gap(OffsetHole hole, long start, long end, long firstRecord) {
    return Finding.range(
            Kind.GAP,
            "offsets "
                + start
                + ".."
                + end
                + " "
                + hole.where()
                + " are in no unit, but Kafka holds records there (the first at "
                + firstRecord
                + ")",
            start,
            end,
            hole.generation())
        .withFirstRecord(firstRecord);
  }

  static Finding expired(long start, long end, KafkaTp kafka, String where, Long generation) {
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

  static Finding unchecked(long start, long end, String why, Long generation) {
    return Finding.range(
        Kind.UNCHECKED,
        "offsets " + start + ".." + end + " could not be checked: " + why,
        start,
        end,
        generation);
  }

  static Finding kafkaBehindLake(long next, KafkaTp kafka) {
    return Finding.note(
        Kind.KAFKA_BEHIND_LAKE,
        "the lake resumes at offset "
            + next
            + " but Kafka ends at "
            + kafka.end()
            + ": the topic was recreated or truncated; the sink fails on opening the"
            + " partition, or starts a new generation with"
            + " behavior.on.offset.discontinuity=new_generation");
  }

  static Finding lag(long first, KafkaTp kafka) {
    return Finding.range(
            Kind.LAG,
            "Kafka holds records from offset "
                + first
                + " on that the lake does not hold yet ("
                + (kafka.end() - first)
                + " offsets up to its end at "
                + kafka.end()
                + ")",
            first,
            kafka.end() - 1,
            null)
        .withFirstRecord(first);
  }

  /**
   * @param next where the lake resumes, null when it holds nothing of the partition
   */
  static Finding groupAhead(long group, Long next, long first) {
    return Finding.range(
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
        .withFirstRecord(first);
  }
}
