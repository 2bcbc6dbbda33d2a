package io.skippr.connect.lake.write;

import io.skippr.connect.lake.buffer.PathBuffer;
import io.skippr.connect.lake.buffer.UnitBuffer;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.metrics.LakeSinkMetrics;
import io.skippr.connect.lake.write.OffsetCheck.Action;
import io.skippr.connect.lake.write.OffsetCheck.Discontinuity;
import io.skippr.connect.lake.write.OffsetCheck.Step;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One TP a writer owns, from open to close, as one state machine: its claimed log, its open unit,
 * its unit in flight, where the offsets Kafka delivers stand against the lake, and the log entries
 * its moves append (a unit's intent and commit, a replay's abort, a new generation). Called by the
 * task's thread, except {@link #appendCommit}: while a unit is in flight (from {@link
 * #unitInFlight} until {@link #unitLanded}) the TP's log belongs to the commit queue's thread,
 * which appends the unit's commit once its files are written. A move the diagram below does not
 * allow is a bug and throws.
 *
 * <p>The phases before {@link TpPhase#LIVE} check that Kafka delivers where the lake expects
 * (lake-format.md, "Offsets the lake cannot account for"). After the task seeks a TP, the consumer
 * delivers from that offset on, unless the offset is out of Kafka's range and the consumer resets
 * to the earliest record (Connect's sink consumers reset to {@code earliest}). So a record below
 * the sought offset means the topic was recreated or truncated, and a first record above it means
 * either offsets without data (transaction markers, aborted or compacted records) or records that
 * expired before the lake had them; a probe (a seek to offset 0, where the consumer delivers the
 * first record Kafka holds) tells the two apart. Each check asks for at most one seek; the rest of
 * its batch is skipped (fetched from the old position) until {@link #batchEnded}.
 *
 * <pre>
 *  open: no record of the TP in the lake          open: the lake expects offset E
 *           │                                                │
 *           ▼                                                ▼
 *          NEW ─────── 0 ───────┐                        EXPECTING ───── E ─────┐
 *           │ above 0: seek 0   │                            │ other: seek E      │
 *           ▼                   │                            ▼                    │
 *      PROBING_NEW ─ start or ──┤            ┌──────────► SOUGHT ─────── E ───────┤
 *           │        above      │            │               │ above E: seek 0    │
 *           │                   │            │               ▼                    │
 *           │                   │            │            PROBING ────── E ───────┤
 *           │ below start:      │            │               │ below E: seek E    │
 *           │ seek start        │            │               ▼                    │
 *           └───────────────────┼────────────┼──────────► SETTLING ── E or above ─┤
 *                               │            │                                    ▼
 *                               └────────────┼────────────────────────────────► LIVE
 *                                            │                                    │
 *                                            └─── at or below the highest offset ─┘
 *                                                 accepted: seek highest + 1
 *
 *  A gap (SOUGHT: below E; PROBING: above E; SETTLING: below E) is a discontinuity: under
 *  new_generation a generation entry is appended and the TP goes LIVE at the delivered offset;
 *  else the task fails. From PROBING_NEW, E is where the consumer started. Every phase but
 *  CLOSING and FENCED ──close──► CLOSING; every phase ──fenced──► FENCED.
 * </pre>
 *
 * <p>A TP opened with a pending intent replays it: {@link #replay} holds the intent, the one record
 * of the replay, from open until the replayed unit is handed over ({@link #replayed}) or the replay
 * is abandoned (an abort entry); meanwhile triggers do not cut its unit and memory pressure does
 * not pause it.
 */
final class TpStateMachine {
  private static final Logger LOG = LoggerFactory.getLogger(TpStateMachine.class);

  final TopicPartition tp;
  final TpLog log;

  /** Where the lake expected the TP to resume when it was opened; empty when it had no record. */
  final OptionalLong openedAt;

  private final LakeSinkMetrics.Tp gauges;
  private TpPhase phase;
  private LogEntry.Intent replay;
  private UnitBuffer unit = new UnitBuffer();
  private long firstAccepted = -1;

  /** The offset the phase is about: expected next, or (probing) the first delivered one. */
  private long expected;

  /** The first offset delivered above {@link #expected}, while probing. */
  private long above;

  /** The highest offset accepted, -1 before the first. */
  private long highest = -1;

  /** A seek was asked for in the current batch: its other records of this TP are stale. */
  private boolean awaitingSeek;

  /** Consumption is paused to stay within the buffer budget ({@link MemoryGovernor}). */
  private boolean paused;

  /**
   * While a unit is in flight: the TP's last committed offset from before it, all the task's thread
   * may read of the log then; null when no unit is in flight.
   */
  private OptionalLong committedBeforeInFlight;

  /**
   * @param replay the pending intent to replay exactly, or null
   * @param seekOffset where the lake expects the TP to resume; empty when it has no record of it
   * @param gauges what the TP's metrics read
   */
  TpStateMachine(
      TopicPartition tp,
      TpLog log,
      LogEntry.Intent replay,
      OptionalLong seekOffset,
      LakeSinkMetrics.Tp gauges) {
    this.tp = tp;
    this.log = log;
    this.replay = replay;
    this.openedAt = seekOffset;
    this.gauges = gauges;
    if (seekOffset.isPresent()) {
      this.phase = TpPhase.EXPECTING;
      this.expected = seekOffset.getAsLong();
      this.highest = expected - 1;
    } else {
      this.phase = TpPhase.NEW;
    }
  }

  TpPhase phase() {
    return phase;
  }

  /** Whether records may still join: neither closing nor fenced. */
  boolean isOpen() {
    return phase.isOpen();
  }

  /** The pending intent being replayed; null when the TP does not replay one. */
  LogEntry.Intent replay() {
    return replay;
  }

  /** Whether the TP buffers units that triggers cut: open and not replaying. */
  boolean buffering() {
    return isOpen() && replay == null;
  }

  /** Whether triggers may cut the unit now. */
  boolean rotatable() {
    return buffering() && !unit.isEmpty();
  }

  /** Whether the {@link MemoryGovernor} paused consuming the TP. */
  boolean paused() {
    return paused;
  }

  void paused(boolean paused) {
    this.paused = paused;
  }

  LakeSinkMetrics.Tp gauges() {
    return gauges;
  }

  UnitBuffer unit() {
    return unit;
  }

  /** Hands the buffered unit over (to be written or dropped) and starts an empty one. */
  UnitBuffer takeUnit() {
    UnitBuffer taken = unit;
    unit = new UnitBuffer();
    return taken;
  }

  // ---- offsets Kafka delivers ----

  /** Checks one delivered offset, moving the phase; offsets are checked in delivery order. */
  Step check(long offset) {
    if (awaitingSeek) {
      return Step.SKIPPED;
    }
    return switch (phase) {
      case NEW -> offset == 0 ? accept(offset) : probe(TpPhase.PROBING_NEW, offset);
      case EXPECTING -> offset == expected ? accept(offset) : seek(TpPhase.SOUGHT, expected);
      case SOUGHT -> afterSeek(offset);
      case PROBING -> probed(offset);
      case PROBING_NEW -> probedNew(offset);
      case SETTLING -> offset >= expected ? accept(offset) : discontinuity(true, offset);
      case LIVE -> offset > highest ? accept(offset) : seekAgain(highest + 1);
      case CLOSING, FENCED -> Step.SKIPPED;
    };
  }

  /** The batch ended: a seek asked for takes effect before the next one. */
  void batchEnded() {
    awaitingSeek = false;
  }

  /** Notes an accepted record, for where a reopened TP must resume. */
  void accepted(long offset) {
    gauges.delivered(offset);
    if (firstAccepted < 0) {
      firstAccepted = offset;
    }
  }

  // ---- moves that append to the log ----

  /**
   * Plans the buffered unit: its compaction id (of the current generation), the file of each table
   * partition path, and appends its intent (lake-format.md, The commit protocol, step 3).
   *
   * @param fileKey the key of a unit's file: path buffer and compaction id
   */
  LogEntry.Intent appendIntent(
      String configFingerprint, BiFunction<PathBuffer, String, String> fileKey) throws IOException {
    String id =
        LakeLayout.compactionId(
            tp.topic(), tp.partition(), log.state().generation(), unit.start(), unit.end());
    List<String> files = new ArrayList<>();
    for (PathBuffer path : unit.paths()) {
      files.add(fileKey.apply(path, id));
    }
    LogEntry.Intent intent =
        new LogEntry.Intent(
            id,
            unit.start(),
            unit.end(),
            log.epoch(),
            unit.wallclockMs(),
            configFingerprint,
            files);
    log.append(intent);
    return intent;
  }

  /**
   * Appends the commit of the unit in flight (lake-format.md, The commit protocol, step 5),
   * conditional on the epoch; runs on the commit queue's thread. Files written staged ({@code
   * write.policy=replace_partition}) enter their tables before the commit when the TP has no older
   * files in their paths, as any unit's; else the commit retires those older files (decided with
   * the append, so a merge committing meanwhile is replaced too), they leave their tables and then
   * the unit's files enter them, so a reader that globs never sees both.
   *
   * @param written the keys of the unit's files
   * @param commit the commit entry, given the live files it retires
   * @param retires which of the TP's live files the unit's files replace; null when its files were
   *     not staged and replace nothing
   */
  AppendedCommit appendCommit(
      List<String> written,
      Function<List<LiveFile>, LogEntry.Commit> commit,
      Function<Map<String, LiveFile>, List<LiveFile>> retires)
      throws IOException {
    if (retires == null) {
      return new AppendedCommit(log.append(commit.apply(List.of())), List.of());
    }
    if (retires.apply(log.snapshot().live()).isEmpty()) {
      log.placement().publishUncommitted(written);
      return new AppendedCommit(log.append(commit.apply(List.of())), List.of());
    }
    List<LiveFile> retired = new ArrayList<>();
    long seq =
        log.appendDecided(
            state -> {
              retired.addAll(retires.apply(state.liveFiles()));
              return commit.apply(retired);
            });
    log.placement().place(retired.stream().map(LiveFile::key).toList(), written);
    return new AppendedCommit(seq, retired);
  }

  /**
   * A unit's appended commit.
   *
   * @param seq the commit's sequence number in the log
   * @param retired the files it retired
   */
  record AppendedCommit(long seq, List<LiveFile> retired) {}

  /** The unit just taken is handed to the commit queue: the log is its thread's until it lands. */
  void unitInFlight() {
    if (committedBeforeInFlight != null) {
      throw new IllegalStateException("a unit of " + tp + " is in flight");
    }
    committedBeforeInFlight = committedEnd();
  }

  /** The unit in flight was taken off the commit queue, committed or not. */
  void unitLanded() {
    committedBeforeInFlight = null;
  }

  /** Whether a unit of the TP is in flight. */
  boolean hasUnitInFlight() {
    return committedBeforeInFlight != null;
  }

  /**
   * The TP's last committed offset as the task's thread may read it now: while a unit is in flight,
   * the one from before that unit.
   */
  OptionalLong committedOffset() {
    return hasUnitInFlight() ? committedBeforeInFlight : committedEnd();
  }

  /** The replayed unit is handed over to be committed under its intent; returns the intent. */
  LogEntry.Intent replayed() {
    LogEntry.Intent intent = replay;
    replay = null;
    return intent;
  }

  /**
   * The replay cannot reproduce its intent: deletes what the intent names and appends its abort
   * (lake-format.md, The commit protocol, step 2); the unit is planned anew.
   */
  void abandonReplay(String reason) throws IOException {
    LOG.warn("Abandoning replay of {}: {}; planning the unit anew", replay.id(), reason);
    log.abandon(replay, "replay differs: " + reason);
    replay = null;
  }

  /**
   * Starts a new generation at the discontinuity's delivered offset, after the caller committed
   * what the TP buffered of the old one: appends the generation entry; the TP goes on {@link
   * TpPhase#LIVE} at the delivered offset, with nothing of the new generation accepted yet.
   *
   * @return the new generation's number
   */
  long startGeneration(Discontinuity gap) throws IOException {
    if (replay != null) {
      throw new IllegalStateException(tp + " starts a generation while replaying " + replay.id());
    }
    if (phase != TpPhase.LIVE) {
      move(TpPhase.LIVE);
    }
    long generation = log.startGeneration(gap.delivered(), gap.describe());
    highest = gap.delivered();
    firstAccepted = -1;
    return generation;
  }

  // ---- the end ----

  /** Nothing more joins; returns what was buffered, to be dropped. */
  UnitBuffer closing() {
    move(TpPhase.CLOSING);
    replay = null;
    return takeUnit();
  }

  /** A newer writer claimed the TP; returns what was buffered, to be dropped. */
  UnitBuffer fenced() {
    move(TpPhase.FENCED);
    replay = null;
    return takeUnit();
  }

  /**
   * Where this TP must resume if it is reopened with nothing more in its log: after the last
   * commit, else at the first record it accepted; empty when it accepted nothing.
   */
  OptionalLong resumeOffset() {
    OptionalLong committed = committedEnd();
    if (committed.isPresent()) {
      return OptionalLong.of(committed.getAsLong() + 1);
    }
    return firstAccepted >= 0 ? OptionalLong.of(firstAccepted) : OptionalLong.empty();
  }

  /** The last committed offset of the current generation, if any. */
  private OptionalLong committedEnd() {
    return log.state().lastCommit().map(c -> OptionalLong.of(c.end())).orElse(OptionalLong.empty());
  }

  /** The highest offset accepted, or the one before the expected start; -1 when none. */
  long highest() {
    return highest;
  }

  /** Moves to {@code to}, or throws when the diagram has no such move. */
  void move(TpPhase to) {
    if (!phase.allows(to)) {
      throw new IllegalStateException(tp + " cannot move from " + phase + " to " + to);
    }
    phase = to;
  }

  private Step accept(long offset) {
    if (phase != TpPhase.LIVE) {
      move(TpPhase.LIVE);
    }
    highest = offset;
    return Step.ACCEPTED;
  }

  /** The consumer went back without being asked to: seek on, and see where it lands. */
  private Step seekAgain(long next) {
    expected = next;
    return seek(TpPhase.SOUGHT, next);
  }

  private Step afterSeek(long offset) {
    if (offset == expected) {
      return accept(offset);
    }
    return offset < expected ? discontinuity(true, offset) : probe(TpPhase.PROBING, offset);
  }

  /** The first record Kafka holds, compared with where the lake expects the TP. */
  private Step probed(long first) {
    if (first < expected) {
      return seek(TpPhase.SETTLING, expected); // Kafka holds the range: the gap holds no data
    }
    return first == expected ? accept(first) : discontinuity(false, first);
  }

  /** The first record Kafka holds, compared with where a TP new to the lake started. */
  private Step probedNew(long first) {
    if (first < above) {
      expected = above;
      Step seek = seek(TpPhase.SETTLING, above);
      return new Step(
          seek.action(), seek.seekTo(), null, OffsetCheck.skippedBelow(tp, first, above));
    }
    accept(first);
    return new Step(Action.ACCEPT, -1, null, OffsetCheck.startsAtFirstHeld(tp, first));
  }

  /** Asks for a seek; the rest of the batch is stale. */
  private Step seek(TpPhase next, long offset) {
    move(next);
    awaitingSeek = true;
    return Step.seek(offset);
  }

  /** Seeks offset 0, where the consumer delivers the first record Kafka still holds. */
  private Step probe(TpPhase next, long delivered) {
    above = delivered;
    return seek(next, 0);
  }

  private Step discontinuity(boolean below, long delivered) {
    return new Step(
        Action.DISCONTINUITY, -1, new Discontinuity(tp, below, expected, delivered), null);
  }

  @Override
  public String toString() {
    return tp + " (" + phase + (replay != null ? ", replaying " + replay.id() : "") + ")";
  }
}
