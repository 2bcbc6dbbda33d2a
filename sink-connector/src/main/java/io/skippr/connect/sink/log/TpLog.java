package io.skippr.connect.sink.log;

import io.skippr.connect.sink.storage.LakeStorage;
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

  private TpLog(LakeStorage storage, LakeLayout layout, String topic, int partition) {
    this.storage = storage;
    this.layout = layout;
    this.topic = topic;
    this.partition = partition;
    this.placement = new FilePlacement(storage, layout, this);
  }

  /**
   * Reads the log: the newest checkpoint and every entry after it.
   *
   * @throws LogFormatException when an entry read has an unknown format; nothing is changed
   */
  public static TpLog read(LakeStorage storage, LakeLayout layout, String topic, int partition)
      throws IOException {
    TpLog log = new TpLog(storage, layout, topic, partition);
    List<String> keys = log.entryKeys();
    Deque<Numbered> tail = new ArrayDeque<>();
    for (int i = keys.size() - 1; i >= 0; i--) {
      LogEntry entry = log.readEntry(keys.get(i));
      tail.addFirst(new Numbered(LakeLayout.seqOf(keys.get(i)), entry));
      if (entry instanceof LogEntry.Checkpoint) {
        break;
      }
    }
    for (Numbered item : tail) {
      log.state.apply(item.seq(), item.entry(), layout);
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

  /** Appends {@code epoch = max + 1}, making every older writer of this TP unable to append. */
  public synchronized long claimEpoch(String owner, long nowMs) throws IOException {
    for (int attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
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
          storage.createIfAbsent(layout.entryKey(topic, partition, seq), LogCodec.encode(entry));
    } catch (IOException | RuntimeException e) {
      // Whether the entry landed is unknown: only a re-read of the log can tell.
      unusable = true;
      throw e;
    }
    if (created) {
      state.apply(seq, entry, layout);
    }
    return created;
  }

  private void refresh() throws IOException {
    for (String key : entryKeys()) {
      long seq = LakeLayout.seqOf(key);
      if (seq > state.lastSeq()) {
        state.apply(seq, readEntry(key), layout);
      }
    }
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

  private LogEntry readEntry(String key) throws IOException {
    try {
      return LogCodec.decode(storage.read(key), storage.location() + key);
    } catch (LogFormatException e) {
      throw new LogFormatException(
          "refusing to open " + topic + "-" + partition + ": " + e.getMessage(), e);
    }
  }

  private record Numbered(long seq, LogEntry entry) {}
}
