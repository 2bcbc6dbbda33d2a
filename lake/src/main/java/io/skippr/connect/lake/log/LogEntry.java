package io.skippr.connect.lake.log;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import java.util.Map;

/**
 * One entry of a TP log. Every entry names the epoch of the writer that appended it; the codec adds
 * the log format version.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "kind")
@JsonSubTypes({
  @JsonSubTypes.Type(value = LogEntry.Epoch.class, name = "epoch"),
  @JsonSubTypes.Type(value = LogEntry.Intent.class, name = "intent"),
  @JsonSubTypes.Type(value = LogEntry.Commit.class, name = "commit"),
  @JsonSubTypes.Type(value = LogEntry.Abort.class, name = "abort"),
  @JsonSubTypes.Type(value = LogEntry.Checkpoint.class, name = "checkpoint"),
  @JsonSubTypes.Type(value = LogEntry.Generation.class, name = "generation"),
  @JsonSubTypes.Type(value = LogEntry.CompactIntent.class, name = "compact-intent"),
  @JsonSubTypes.Type(value = LogEntry.CompactCommit.class, name = "compact-commit"),
  @JsonSubTypes.Type(value = LogEntry.CompactAbort.class, name = "compact-abort"),
  @JsonSubTypes.Type(value = LogEntry.Expire.class, name = "expire"),
  @JsonSubTypes.Type(value = LogEntry.Purge.class, name = "purge")
})
public sealed interface LogEntry {

  /** The epoch of the writer that appended this entry. */
  long epoch();

  /**
   * A writer claims ownership of the TP.
   *
   * @param owner who claimed it (task id, for operators)
   * @param atMs wall clock of the claim
   */
  record Epoch(long epoch, String owner, long atMs) implements LogEntry {}

  /**
   * A planned compaction unit, appended before any of its files is written.
   *
   * @param id the compaction id
   * @param start first offset of the unit
   * @param end last offset of the unit (inclusive)
   * @param wallclockMs the wall-clock instant the unit's partition paths were computed with
   * @param configFingerprint fingerprint of the settings that shape file names and contents
   * @param files the exact keys of the files the unit writes
   */
  record Intent(
      String id,
      long start,
      long end,
      long epoch,
      long wallclockMs,
      String configFingerprint,
      List<String> files)
      implements LogEntry {
    public Intent {
      files = List.copyOf(files);
    }
  }

  /**
   * The unit's files are complete and live.
   *
   * @param source where the unit's last record came from, for a source run without Kafka ({@code
   *     skippr sync}); null for units of Kafka topics
   * @param replaces live files of the TP this unit replaces ({@code
   *     write.policy=replace_partition}: the older files of the partition paths it writes); retired
   *     at this entry
   * @param replacedDeleteAfterMs when the replaced files may be deleted
   */
  record Commit(
      String id,
      long start,
      long end,
      long epoch,
      List<LiveFile> files,
      @JsonInclude(JsonInclude.Include.NON_NULL) SourcePosition source,
      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> replaces,
      @JsonInclude(JsonInclude.Include.NON_DEFAULT) long replacedDeleteAfterMs)
      implements LogEntry {
    public Commit {
      files = List.copyOf(files);
      replaces = replaces == null ? List.of() : List.copyOf(replaces);
    }

    /** A commit of a unit read from Kafka. */
    public Commit(String id, long start, long end, long epoch, List<LiveFile> files) {
      this(id, start, end, epoch, files, null, List.of(), 0);
    }

    /** A commit of a unit of a source run without Kafka. */
    public Commit(
        String id, long start, long end, long epoch, List<LiveFile> files, SourcePosition source) {
      this(id, start, end, epoch, files, source, List.of(), 0);
    }

    public CommittedUnit unit() {
      return new CommittedUnit(id, start, end, epoch, source);
    }
  }

  /**
   * A record's place in a source connector's own terms: its source partition and source offset, as
   * the connector gave them (Connect's encoding).
   */
  record SourcePosition(Map<String, Object> partition, Map<String, Object> offset) {}

  /** The unit of an intent was abandoned; its files were deleted before this entry. */
  record Abort(String id, long epoch, String reason) implements LogEntry {}

  /**
   * A summary of everything before it, so that opening reads only the entries after the newest
   * checkpoint.
   *
   * @param maxEpoch the newest epoch claimed so far
   * @param lastCommit the newest committed unit of the current generation, or null when none
   * @param liveFiles every live file of the TP, of every generation
   * @param tables every table the TP ever planned files in (where orphans may be)
   * @param generation the current generation (0 in logs written before generations existed)
   * @param generationStart where the current generation starts, null when it is generation 0 or
   *     starts wherever the consumer does
   */
  record Checkpoint(
      long epoch,
      long maxEpoch,
      CommittedUnit lastCommit,
      List<LiveFile> liveFiles,
      List<String> tables,
      long generation,
      Long generationStart,
      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<RetiredFile> retired,
      @JsonInclude(JsonInclude.Include.NON_NULL) CompactIntent compacting)
      implements LogEntry {
    public Checkpoint {
      liveFiles = List.copyOf(liveFiles);
      tables = List.copyOf(tables);
      retired = retired == null ? List.of() : List.copyOf(retired);
    }

    /** A checkpoint of a TP without retired files or a merge under way. */
    public Checkpoint(
        long epoch,
        long maxEpoch,
        CommittedUnit lastCommit,
        List<LiveFile> liveFiles,
        List<String> tables,
        long generation,
        Long generationStart) {
      this(epoch, maxEpoch, lastCommit, liveFiles, tables, generation, generationStart, null, null);
    }
  }

  /**
   * A file that is no longer live but not yet deleted: the input of a merge, kept for readers that
   * list files instead of reading the log, or an expired file.
   *
   * @param deleteAfterMs when it may be deleted (wall clock)
   */
  record RetiredFile(String key, long deleteAfterMs) {}

  /**
   * The TP starts a new generation: the offsets Kafka delivers from here on are not a continuation
   * of the units before (the topic was recreated or truncated, records expired before they landed,
   * or the connector's offsets were reset through the REST API). Units of generation {@code n > 0}
   * carry {@code g<n>} in their ids, so they never collide with older ones; older files stay live.
   *
   * @param generation the new generation, one more than the previous
   * @param startOffset the first offset of the generation, or -1 when the consumer's position
   *     decides (offsets deleted through the REST API)
   * @param previousEnd the last offset the previous generation committed, or -1 when none
   * @param reason why, for operators
   */
  record Generation(long epoch, long generation, long startOffset, long previousEnd, String reason)
      implements LogEntry {}

  /**
   * A planned merge of live files of one table partition path, appended before its output is
   * written. The output's id and key derive from the inputs' compaction ids, so a merge planned
   * again from the same inputs writes the same file.
   *
   * @param id the merge's compaction id
   * @param inputs the keys of the live files it merges, in offset order
   * @param outputs the keys of the files it writes
   * @param policy how rows are merged ({@code append}, {@code merge_by_key})
   */
  record CompactIntent(
      String id, long epoch, long atMs, List<String> inputs, List<String> outputs, String policy)
      implements LogEntry {
    public CompactIntent {
      inputs = List.copyOf(inputs);
      outputs = List.copyOf(outputs);
    }
  }

  /**
   * The merge's outputs are live and its inputs retired: readers of the log switch from the inputs
   * to the outputs at this entry; the inputs are deleted after {@code deleteAfterMs}.
   */
  record CompactCommit(
      String id,
      long epoch,
      long atMs,
      List<String> inputs,
      List<LiveFile> outputs,
      long deleteAfterMs)
      implements LogEntry {
    public CompactCommit {
      inputs = List.copyOf(inputs);
      outputs = List.copyOf(outputs);
    }
  }

  /** A planned merge was given up; its outputs were deleted before this entry. */
  record CompactAbort(String id, long epoch, String reason) implements LogEntry {}

  /**
   * Retention removed files whose rows are all older than the table's window: they are no longer
   * live from this entry on and are deleted right after it.
   */
  record Expire(long epoch, long atMs, List<String> files, String reason) implements LogEntry {
    public Expire {
      files = List.copyOf(files);
    }
  }

  /** Retired or expired files were deleted. */
  record Purge(long epoch, List<String> files) implements LogEntry {
    public Purge {
      files = List.copyOf(files);
    }
  }
}
