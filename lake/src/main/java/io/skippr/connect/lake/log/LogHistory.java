package io.skippr.connect.lake.log;

import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * A TP log read whole: every entry from the first, in sequence order, and the state they fold to.
 * Writers read only from the newest checkpoint ({@link TpLog#read}); a reader that needs every
 * committed unit (an audit of offset ranges) reads the history. Reads only; never claims an epoch.
 */
public final class LogHistory {
  /** One entry and its sequence number. */
  public record Numbered(long seq, LogEntry entry) {}

  /** A TP that has a log in the lake. */
  public record Tp(String topic, int partition) {}

  private final Tp tp;
  private final List<Numbered> entries;
  private final LogState state;

  private LogHistory(Tp tp, List<Numbered> entries, LogState state) {
    this.tp = tp;
    this.entries = List.copyOf(entries);
    this.state = state;
  }

  /**
   * Reads every entry of a TP log. Missing entries are skipped (an audit reports them).
   *
   * @throws LogFormatException when an entry has an unknown format, is damaged or contradicts the
   *     entries before it
   */
  public static LogHistory read(LakeStorage storage, LakeLayout layout, String topic, int partition)
      throws IOException {
    List<Numbered> entries = new ArrayList<>();
    LogState state = new LogState();
    boolean epochsKnown = true; // until an entry is missing, up to the next claim or checkpoint
    for (String key : storage.list(layout.logPrefix(topic, partition))) {
      long seq = LakeLayout.seqOf(key);
      if (seq < 0) {
        continue;
      }
      String where = storage.location() + key;
      try {
        LogCodec.Stored stored = LogCodec.read(storage.read(key), where);
        epochsKnown =
            (epochsKnown && seq == state.lastSeq() + 1)
                || stored.entry() instanceof LogEntry.Epoch
                || stored.entry() instanceof LogEntry.Checkpoint;
        EntryOrder.check(state, epochsKnown, stored, topic, partition, "log entry " + where);
        entries.add(new Numbered(seq, stored.entry()));
        state.apply(seq, stored, layout);
      } catch (LogFormatException e) {
        throw new LogFormatException(
            "cannot read the log of " + topic + "-" + partition + ": " + e.getMessage(), e);
      }
    }
    return new LogHistory(new Tp(topic, partition), entries, state);
  }

  /** Every TP that has at least one log entry in the lake, by topic then partition. */
  public static List<Tp> partitions(LakeStorage storage, LakeLayout layout) throws IOException {
    String prefix = layout.logsPrefix();
    TreeSet<Tp> tps =
        new TreeSet<>(Comparator.comparing(Tp::topic).thenComparingInt(Tp::partition));
    for (String key : storage.list(prefix)) {
      if (LakeLayout.seqOf(key) >= 0) {
        String tp = key.substring(prefix.length(), key.lastIndexOf('/'));
        if (tp.matches("[^/]+/\\d+")) {
          int slash = tp.lastIndexOf('/');
          tps.add(new Tp(tp.substring(0, slash), Integer.parseInt(tp.substring(slash + 1))));
        }
      }
    }
    return List.copyOf(tps);
  }

  public Tp tp() {
    return tp;
  }

  /** Every entry, oldest first. */
  public List<Numbered> entries() {
    return entries;
  }

  /** What the whole log folds to: the same state a writer opening the TP would read. */
  public LogState state() {
    return state;
  }
}
