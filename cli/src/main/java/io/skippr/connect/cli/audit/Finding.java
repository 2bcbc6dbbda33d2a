package io.skippr.connect.cli.audit;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * One thing the audit found.
 *
 * @param start first offset concerned, or null
 * @param end last offset concerned (inclusive), or null
 * @param firstRecord the first offset in the range that holds a record, or null
 * @param generation the generation concerned, or null
 * @param file the file concerned, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record Finding(
    Kind kind,
    String message,
    Long start,
    Long end,
    Long firstRecord,
    Long generation,
    String file) {

  /** How much a finding matters: a problem makes the audit exit 1. */
  enum Severity {
    PROBLEM,
    WARNING,
    INFO;

    @JsonValue
    String json() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** What was found. */
  enum Kind {
    /** Offsets that hold records in Kafka but are in no committed unit. */
    GAP(Severity.PROBLEM),
    /** Offsets that two committed units both hold: their rows are in the lake twice. */
    OVERLAP(Severity.PROBLEM),
    /** A file the log lists as live that storage does not have. */
    MISSING_FILE(Severity.PROBLEM),
    /** The group's committed offset is past records the lake does not hold. */
    GROUP_AHEAD(Severity.PROBLEM),
    /** Entries of the log are missing below its newest one. */
    LOG_ENTRIES_MISSING(Severity.PROBLEM),
    /** The lake has TP logs but no identity, or one that cannot be read. */
    LAKE_IDENTITY(Severity.PROBLEM),
    /** A log entry the sink cannot read or trust: damaged, edited, of a newer format. */
    UNREADABLE_LOG(Severity.PROBLEM),
    /** A log written for another lake than this one. */
    FOREIGN_LOG(Severity.PROBLEM),
    /** A stored table schema the sink cannot read: damaged, edited, of a newer format. */
    UNREADABLE_SCHEMA(Severity.PROBLEM),
    /** A recorded table write policy the sink cannot read: damaged, edited, of a newer format. */
    UNREADABLE_POLICY(Severity.PROBLEM),
    /** A live file whose size or SHA-256 differ from its commit ({@code --verify-files}). */
    CORRUPT_FILE(Severity.PROBLEM),
    /** Offsets in no unit that Kafka no longer holds: expired or deleted before they landed. */
    EXPIRED(Severity.WARNING),
    /** A unit planned but neither committed nor aborted (being written, or left by a crash). */
    PENDING(Severity.WARNING),
    /** Records in Kafka after the lake's last unit. */
    LAG(Severity.WARNING),
    /** A file storage has that no commit lists and no unit is writing. */
    ORPHAN(Severity.WARNING),
    /** The lake resumes the TP past Kafka's end: the topic was recreated or truncated. */
    KAFKA_BEHIND_LAKE(Severity.WARNING),
    /** The lake has a log of a topic Kafka does not have. */
    TOPIC_MISSING(Severity.WARNING),
    /** Offsets that could not be checked. */
    UNCHECKED(Severity.WARNING),
    /** A file a unit is writing: named by a pending intent, or committed during the audit. */
    IN_FLIGHT(Severity.INFO),
    /** Where a generation starts and why. */
    GENERATION(Severity.INFO),
    /** A merge planned but neither committed nor aborted: its inputs are still the live files. */
    MERGING(Severity.INFO),
    /** Files retention removed from the lake: their units stay committed, so they are no gap. */
    RETENTION_EXPIRED(Severity.INFO);

    private final Severity severity;

    Kind(Severity severity) {
      this.severity = severity;
    }

    Severity severity() {
      return severity;
    }

    @JsonValue
    String json() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The severity of the kind, as the JSON shows it. */
  @JsonProperty("severity")
  public Severity severity() {
    return kind.severity();
  }

  static Finding range(Kind kind, String message, long start, long end, Long generation) {
    return new Finding(kind, message, start, end, null, generation, null);
  }

  static Finding file(Kind kind, String message, String file) {
    return new Finding(kind, message, null, null, null, null, file);
  }

  static Finding note(Kind kind, String message) {
    return new Finding(kind, message, null, null, null, null, null);
  }

  Finding withFirstRecord(long offset) {
    return new Finding(kind, message, start, end, offset, generation, file);
  }
}
