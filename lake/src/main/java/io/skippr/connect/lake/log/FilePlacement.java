package io.skippr.connect.lake.log;

import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Moves one TP's data files into and out of their tables, so that a reader that globs a table never
 * sees a file together with the files it replaces. A file that replaces others (a merge's output, a
 * unit under {@code write.policy=replace_partition}) is written staged, under {@code
 * _skippr/staged/}; after the log entry that retires the others, they leave their table for {@code
 * _skippr/retired/}, and only then does the new file enter it. A retired file is deleted wherever
 * it is once its grace is over.
 *
 * <p>Every step can be repeated: a file that was moved already is left where it is, so a new owner
 * rolls a placement forward after a crash ({@link #rollForward}). The moves of one TP are
 * serialised, and a staged file enters its table only while the log lists it as live.
 */
public final class FilePlacement {
  /** The keys storage holds under a prefix. */
  @FunctionalInterface
  public interface Listing {
    List<String> list(String prefix) throws IOException;
  }

  private final LakeStorage storage;
  private final LakeLayout layout;
  private final TpLog log;

  FilePlacement(LakeStorage storage, LakeLayout layout, TpLog log) {
    this.storage = storage;
    this.layout = layout;
    this.log = log;
  }

  /**
   * After the log entry that retired {@code retired} and made {@code staged} live: the retired
   * files leave their tables, then the staged ones the log still lists as live enter theirs (one
   * retired meanwhile leaves instead).
   */
  public synchronized void place(Collection<String> retired, Collection<String> staged)
      throws IOException {
    for (String key : retired) {
      hide(key);
    }
    for (String key : staged) {
      if (log.isLive(key)) {
        publish(key);
      } else {
        hide(key);
      }
    }
  }

  /**
   * Puts staged files that no log entry lists yet into their tables: a unit's own files when it
   * replaces nothing, before its commit, as a unit writes them in place otherwise.
   */
  public synchronized void publishUncommitted(Collection<String> staged) throws IOException {
    for (String key : staged) {
      storage.move(layout.stagedKey(key), key);
    }
  }

  /** Deletes retired files, wherever they are: in their table, staged or retired. */
  public synchronized void delete(Collection<String> keys) throws IOException {
    List<String> all = new ArrayList<>(keys.size() * 3);
    for (String key : keys) {
      all.add(key);
      all.add(layout.stagedKey(key));
      all.add(layout.retiredKey(key));
    }
    storage.deleteAll(all);
  }

  /** Deletes planned files that never became live, complete or not, staged or not. */
  public void discard(Collection<String> keys) throws IOException {
    for (String key : keys) {
      for (String at : List.of(key, layout.stagedKey(key))) {
        storage.delete(at);
        storage.discardIncomplete(at);
      }
    }
  }

  /**
   * Finishes what a writer that stopped left of its placements, from what storage holds: retired
   * files still in their tables (or still staged) leave them, staged files the log lists as live
   * enter theirs, and the TP's other staged files (of a merge or unit that never committed, or a
   * copy of a file already published) are deleted, as are unfinished writes of staged files.
   *
   * @param listing what storage holds; callers that open many TPs at once may cache it
   * @return the staged files deleted
   */
  public synchronized List<String> rollForward(Listing listing) throws IOException {
    LogState state = log.state();
    Set<String> retired = state.retired().keySet();
    List<String> live = new ArrayList<>();
    List<String> deleted = new ArrayList<>();
    for (String table : state.tables()) {
      for (String key : listing.list(layout.tablePrefix(table))) {
        if (retired.contains(key)) {
          hide(key);
        }
      }
      for (String stagedKey : listing.list(layout.stagedPrefix(table))) {
        String key = layout.fileKeyOfStaged(stagedKey);
        if (key == null || !CompactionId.namedFor(key, log.topic(), log.partition())) {
          continue;
        }
        if (retired.contains(key)) {
          hide(key);
        } else if (state.liveFiles().containsKey(key)) {
          live.add(key);
        } else {
          storage.delete(stagedKey);
          deleted.add(stagedKey);
        }
      }
      for (String stagedKey : storage.listIncomplete(layout.stagedPrefix(table))) {
        String key = layout.fileKeyOfStaged(stagedKey);
        if (key != null && CompactionId.namedFor(key, log.topic(), log.partition())) {
          storage.discardIncomplete(stagedKey);
        }
      }
    }
    for (String key : live) {
      publish(key);
    }
    return deleted;
  }

  /** Moves a file out of its table (or out of staging) to where retired files wait. */
  private void hide(String key) throws IOException {
    String aside = layout.retiredKey(key);
    try {
      storage.move(key, aside);
    } catch (NoSuchFileException inTable) {
      try {
        storage.move(layout.stagedKey(key), aside);
      } catch (NoSuchFileException staged) {
        // moved or deleted already
      }
    }
  }

  /** Moves a staged file into its table; one already there (or gone) stays as it is. */
  private void publish(String key) throws IOException {
    try {
      storage.move(layout.stagedKey(key), key);
    } catch (NoSuchFileException e) {
      // published already
    }
  }
}
