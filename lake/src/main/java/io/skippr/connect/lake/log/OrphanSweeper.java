package io.skippr.connect.lake.log;

import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Deletes the files a TP's units wrote that its log does not list (left by a crash or a fenced
 * writer), after finishing the moves of files a stopped writer left half done. One sweeper serves
 * the TPs opened together, listing each table only once.
 */
public final class OrphanSweeper {
  private final LakeStorage storage;
  private final LakeLayout layout;
  private final Map<String, List<String>> complete = new HashMap<>();
  private final Map<String, List<String>> incomplete = new HashMap<>();

  public OrphanSweeper(LakeStorage storage, LakeLayout layout) {
    this.storage = storage;
    this.layout = layout;
  }

  /**
   * The files the TP's log lists as live that storage has neither in their table nor staged, in key
   * order. A live file may be staged: a merge's output, or a unit's file that replaces others,
   * between the entry that made it live and its move into the table (which {@link #sweep} finishes
   * when a writer stopped in between). Lists each table and its staged files once for this and the
   * sweeps that follow; a file neither listing has is looked up again, staged first, as a move in
   * progress puts it in its table before it leaves staging.
   */
  public List<String> missing(LogState state) throws IOException {
    Set<String> stored = new HashSet<>();
    Set<String> listed = new HashSet<>();
    List<String> missing = new ArrayList<>();
    for (String key : new TreeSet<>(state.liveFiles().keySet())) {
      String table = layout.tableOf(key);
      if (listed.add(table)) {
        stored.addAll(listing(complete, layout.stagedPrefix(table), false));
        stored.addAll(listing(complete, layout.tablePrefix(table), false));
      }
      String staged = layout.stagedKey(key);
      if (!stored.contains(key)
          && !stored.contains(staged)
          && !storage.exists(staged)
          && !storage.exists(key)) {
        missing.add(key);
      }
    }
    return missing;
  }

  /**
   * Rolls the TP's file placements forward ({@link FilePlacement#rollForward}), then deletes every
   * file named for the TP in the tables its log knows that neither a commit, the pending intent, a
   * merge under way nor the retired files list, and discards unfinished writes of the TP.
   *
   * @return the deleted keys
   */
  public List<String> sweep(TpLog log) throws IOException {
    String topic = log.topic();
    int partition = log.partition();
    List<String> deleted = new ArrayList<>(log.placement().rollForward(this::listing));
    LogState state = log.state();
    // Retired files left their table above; a merge's outputs wait for its commit.
    Set<String> keep = state.accountedFiles();
    for (String table : state.tables()) {
      String prefix = layout.tablePrefix(table);
      for (String key : listing(complete, prefix, false)) {
        if (CompactionId.namedFor(key, topic, partition) && !keep.contains(key)) {
          storage.delete(key);
          deleted.add(key);
        }
      }
      for (String key : listing(incomplete, prefix, true)) {
        if (CompactionId.namedFor(key, topic, partition)) {
          storage.discardIncomplete(key);
        }
      }
    }
    return deleted;
  }

  private List<String> listing(String prefix) throws IOException {
    return listing(complete, prefix, false);
  }

  private List<String> listing(Map<String, List<String>> cache, String prefix, boolean unfinished)
      throws IOException {
    List<String> keys = cache.get(prefix);
    if (keys == null) {
      keys = unfinished ? storage.listIncomplete(prefix) : storage.list(prefix);
      cache.put(prefix, keys);
    }
    return keys;
  }
}
