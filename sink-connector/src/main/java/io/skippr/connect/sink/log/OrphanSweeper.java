package io.skippr.connect.sink.log;

import io.skippr.connect.sink.storage.LakeStorage;
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
 * writer). One sweeper serves the TPs opened together, listing each table only once.
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
   * The files the TP's log lists as live that storage does not have, in key order. Lists each table
   * once for this and the sweeps that follow.
   */
  public List<String> missing(LogState state) throws IOException {
    Set<String> stored = new HashSet<>();
    Set<String> listed = new HashSet<>();
    List<String> missing = new ArrayList<>();
    for (String key : new TreeSet<>(state.liveFiles().keySet())) {
      String prefix = layout.tablePrefix(layout.tableOf(key));
      if (listed.add(prefix)) {
        stored.addAll(listing(complete, prefix, false));
      }
      if (!stored.contains(key)) {
        missing.add(key);
      }
    }
    return missing;
  }

  /**
   * Deletes every file named for the TP in the tables its log knows that neither a commit, the
   * pending intent, a merge under way nor the retired files list, and discards unfinished writes of
   * the TP.
   *
   * @return the deleted keys
   */
  public List<String> sweep(String topic, int partition, LogState state) throws IOException {
    Set<String> keep = new HashSet<>(state.liveFiles().keySet());
    state.pending().ifPresent(intent -> keep.addAll(intent.files()));
    // Retired files wait out their grace for readers that list files; a merge's outputs its commit.
    keep.addAll(state.retired().keySet());
    state.compacting().ifPresent(merge -> keep.addAll(merge.outputs()));
    List<String> deleted = new ArrayList<>();
    for (String table : state.tables()) {
      String prefix = layout.tablePrefix(table);
      for (String key : listing(complete, prefix, false)) {
        if (LakeLayout.namedFor(key, topic, partition) && !keep.contains(key)) {
          storage.delete(key);
          deleted.add(key);
        }
      }
      for (String key : listing(incomplete, prefix, true)) {
        if (LakeLayout.namedFor(key, topic, partition)) {
          storage.discardIncomplete(key);
        }
      }
    }
    return deleted;
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
