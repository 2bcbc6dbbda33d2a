package io.skippr.connect.lake.log;

import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The append-only log of one TP. Entries are created with create-if-absent at the next sequence
 * number, so the sequence is linear: a writer can only append when it has seen every entry before,
 * which is how it knows no newer epoch has been claimed. A writer that loses the race for a
 * sequence number re-reads the tail and, when it finds a newer epoch, is fenced.
 *
 * <p>Within a process the lake writer and the maintenance of its TPs (merges, expiry) append to one
 * log: appends are serialised on it. Its {@link FilePlacement} may take the log's lock while it
 * holds its own, never the other way round.
 */
public final class TpLog {
  private static final int CLAIM_ATTEMPTS = 5;

  private final LakeStorage storage;
  private final LakeLayout layout;
  private final String topic;
  private final int partition;
  private final LogState state = new LogState();
  private final FilePlacement placement;
  private long epoch;
  private boolean unusable;

  /** The id of the lake this writer's entries name, from its claim on. */
  private String lake;

  private TpLog(LakeStorage storage, LakeLayout layout, String topic, int partition) {
    this.storage = storage;
    this.layout = layout;
    this.topic = topic;
    this.partition = partition;
    this.placement = new FilePlacement(storage, layout, this);
  }

  /**
   * Reads the log: the newest checkpoint and every entry after it, each checked on its own and
   * against the entries before it.
   *
   * @throws LogFormatException when an entry read has an unknown format, is damaged or contradicts
   *     the entries before it, or entries are missing; nothing is changed
   */
  public static TpLog read(LakeStorage storage, LakeLayout layout, String topic, int partition)
      throws IOException {
    TpLog log = new TpLog(storage, layout, topic, partition);
    List<String> keys = log.entryKeys();
    Deque<Numbered> tail = new ArrayDeque<>();
    for (int i = keys.size() - 1; i >= 0; i--) {
      LogCodec.Stored entry = log.readEntry(keys.get(i));
      tail.addFirst(new Numbered(LakeLayout.seqOf(keys.get(i)), keys.get(i), entry));
      if (entry.entry() instanceof LogEntry.Checkpoint) {
        break;
      }
    }
    Numbered first = tail.peekFirst();
    if (first != null
        && first.seq() > 0
        && !(first.stored().entry() instanceof LogEntry.Checkpoint)) {
      throw log.refused(
          new LogFormatException(
              "log entries 0 to "
                  + (first.seq() - 1)
                  + " are missing: the log starts at "
                  + storage.location()
                  + first.key()
                  + " and has no checkpoint"));
    }
    for (Numbered item : tail) {
      log.fold(item);
    }
    return log;
  }

  public LogState state() {
    return state;
  }

  /** Moves this TP's files into and out of their tables as its entries say. */
  public FilePlacement placement() {
    return placement;
  }

  /** Whether the log lists the file as live now. */
  public synchronized boolean isLive(String key) {
    return state.liveFiles().containsKey(key);
  }

  /**
   * What maintenance plans from, copied while no append runs: the live files, the retired ones and
   * the merge under way.
   */
  public synchronized Snapshot snapshot() {
    return new Snapshot(
        Map.copyOf(state.liveFiles()),
        Map.copyOf(state.retired()),
        state.compacting().orElse(null),
        epoch);
  }

  /**
   * A TP's files at one moment.
   *
   * @param live the live files by key
   * @param retired retired files by key, with when each may be deleted
   * @param compacting the merge under way, or null
   * @param epoch the epoch of this writer
   */
  public record Snapshot(
      Map<String, LiveFile> live,
      Map<String, Long> retired,
      LogEntry.CompactIntent compacting,
      long epoch) {}

  /** This writer's epoch, 0 before {@link #claimEpoch}. */
  public long epoch() {
    return epoch;
  }

  public String topic() {
    return topic;
  }

  public int partition() {
    return partition;
  }

  /**
   * Appends {@code epoch = max + 1}, making every older writer of this TP unable to append; this
   * and every later entry of this writer name {@code lake}.
   *
   * @throws LogFormatException when the log was written for another lake; nothing is changed
   */
  public synchronized long claimEpoch(LakeIdentity lake, String owner, long nowMs)
      throws IOException {
    for (int attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      requireLake(lake);
      this.lake = lake.id();
      long claim = state.maxEpoch() + 1;
      if (tryAppend(new LogEntry.Epoch(claim, owner, nowMs))) {
        epoch = claim;
        return claim;
      }
      refresh();
    }
    throw new ConnectException(
        "could not claim " + topic + "-" + partition + ": other writers keep claiming it");
  }

  /**
   * Refuses a log whose entries were written for another lake than {@code lake}: copied from
   * another lake, or read with another lake's {@code lake.json}.
   *
   * @throws LogFormatException naming both lakes and the way out
   */
  public void requireLake(LakeIdentity lake) {
    String named = state.lake();
    if (named != null && !named.equals(lake.id())) {
      throw new LogFormatException(
          "Refusing to open "
              + topic
              + "-"
              + partition
              + ": its log "
              + storage.location()
              + layout.logPrefix(topic, partition)
              + " was written for lake "
              + named
              + ", but this lake is "
              + lake.id()
              + " (its _skippr/lake.json): the log was copied from another lake, or lake.json was"
              + " replaced. Nothing was changed. Put back this lake's own log of the partition,"
              + " or the lake.json that names "
              + named
              + "; to land the partition anew in this lake, delete its log and its files (see"
              + " \"A damaged lake\" in docs/lake-format.md).");
    }
  }

  /**
   * Appends an entry of this writer's epoch.
   *
   * @return the entry's sequence number
   * @throws FencedException when a newer writer claimed the TP
   */
  public synchronized long append(LogEntry entry) throws IOException {
    if (epoch == 0 || entry.epoch() != epoch) {
      throw new IllegalStateException("append needs this writer's claimed epoch: " + entry);
    }
    if (unusable) {
      throw new ConnectException(
          "log of " + topic + "-" + partition + " failed earlier; reopen it");
    }
    if (tryAppend(entry)) {
      return state.lastSeq();
    }
    unusable = true;
    try {
      refresh();
    } catch (LogFormatException e) {
      throw fenced("a writer of a newer log format appended to it");
    }
    if (state.maxEpoch() > epoch) {
      throw fenced("epoch " + state.maxEpoch() + " claimed it");
    }
    throw new ConnectException(
        "log of "
            + topic
            + "-"
            + partition
            + " has an entry of epoch "
            + epoch
            + " not written here");
  }

  /**
   * Appends the entry {@code decide} makes of the log's state as it is now, with no other append in
   * between; appends nothing when it returns null.
   *
   * @return the entry's sequence number, or -1 when nothing was appended
   * @throws FencedException when a newer writer claimed the TP
   */
  public synchronized long appendDecided(Function<LogState, LogEntry> decide) throws IOException {
    LogEntry entry = decide.apply(state);
    return entry == null ? -1 : append(entry);
  }

  /**
   * Starts the next generation of the TP: appends a {@code generation} entry after the current
   * generation's last commit (lake-format.md, "Offsets the lake cannot account for"). The one place
   * a generation starts, for the writer meeting a discontinuity and for offsets changed through
   * Connect's REST API.
   *
   * @param startOffset the generation's first offset; -1 when the consumer's position decides
   * @return the new generation's number
   * @throws FencedException when a newer writer claimed the TP
   */
  public synchronized long startGeneration(long startOffset, String reason) throws IOException {
    long previousEnd = state.lastCommit().map(CommittedUnit::end).orElse(-1L);
    long generation = state.generation() + 1;
    append(new LogEntry.Generation(epoch, generation, startOffset, previousEnd, reason));
    return generation;
  }

  /**
   * Gives up a planned unit: deletes the files its intent names (complete or not, staged or not),
   * then appends {@code abort}. Deleting first means an abort never leaves files behind.
   */
  public void abandon(LogEntry.Intent intent, String reason) throws IOException {
    placement.discard(intent.files());
    append(new LogEntry.Abort(intent.id(), epoch, reason));
  }

  /**
   * Gives up a planned merge: deletes its outputs (complete or not, staged or not), then appends
   * {@code compact-abort}; its inputs stay live.
   */
  public void abandon(LogEntry.CompactIntent merge, String reason) throws IOException {
    placement.discard(merge.outputs());
    append(new LogEntry.CompactAbort(merge.id(), epoch, reason));
  }

  /** Appends a checkpoint when at least {@code interval} entries follow the previous one. */
  public synchronized void checkpointIfDue(int interval) throws IOException {
    if (state.entriesSinceCheckpoint() >= interval) {
      append(state.checkpoint(epoch));
    }
  }

  private boolean tryAppend(LogEntry entry) throws IOException {
    long seq = state.lastSeq() + 1;
    boolean created;
    try {
      created =
          storage.createIfAbsent(
              layout.entryKey(topic, partition, seq), LogCodec.encode(entry, lake));
    } catch (IOException | RuntimeException e) {
      // Whether the entry landed is unknown: only a re-read of the log can tell.
      unusable = true;
      throw e;
    }
    if (created) {
      state.apply(seq, new LogCodec.Stored(entry, lake), layout);
    }
    return created;
  }

  private void refresh() throws IOException {
    for (String key : entryKeys()) {
      long seq = LakeLayout.seqOf(key);
      if (seq > state.lastSeq()) {
        fold(new Numbered(seq, key, readEntry(key)));
      }
    }
  }

  /** Checks an entry against the entries before it, then folds it. */
  private void fold(Numbered item) {
    String where = storage.location() + item.key();
    if (state.lastSeq() >= 0 && item.seq() != state.lastSeq() + 1) {
      throw refused(
          new LogFormatException(
              "log entry "
                  + (state.lastSeq() + 1)
                  + " is missing: the entry after "
                  + state.lastSeq()
                  + " is "
                  + where));
    }
    try {
      EntryOrder.check(state, true, item.stored(), topic, partition, "log entry " + where);
    } catch (LogFormatException e) {
      throw refused(e);
    }
    state.apply(item.seq(), item.stored(), layout);
  }

  private FencedException fenced(String why) {
    return new FencedException(
        topic,
        partition,
        "writer of epoch " + epoch + " is fenced off " + topic + "-" + partition + ": " + why);
  }

  private List<String> entryKeys() throws IOException {
    return storage.list(layout.logPrefix(topic, partition)).stream()
        .filter(key -> LakeLayout.seqOf(key) >= 0)
        .toList();
  }

  private LogCodec.Stored readEntry(String key) throws IOException {
    try {
      return LogCodec.read(storage.read(key), storage.location() + key);
    } catch (LogFormatException e) {
      throw refused(e);
    }
  }

  /** The TP is refused: what is wrong, that nothing changed, and, for damage, the way out. */
  private LogFormatException refused(LogFormatException e) {
    return new LogFormatException(
        "Refusing to open "
            + topic
            + "-"
            + partition
            + ": "
            + e.getMessage()
            + ". Nothing was changed."
            + (e.isNewerFormat() ? "" : " " + DAMAGED_WAY_OUT),
        e);
  }

  /** What to do about a log entry that cannot be trusted. */
  static final String DAMAGED_WAY_OUT =
      "The lake cannot tell what the log said: restore the entry from a backup or an earlier"
          + " version of the object and restart, or land the partition again from scratch (see"
          + " \"A damaged lake\" in docs/lake-format.md).";

  private record Numbered(long seq, String key, LogCodec.Stored stored) {}
}
