package io.skippr.connect.source.file.track;

import io.skippr.connect.source.file.scan.FileStat;
import io.skippr.connect.source.file.scan.Head;
import io.skippr.connect.source.file.scan.Heads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files a task knows, matched against each listing by identity rather than name: a renamed file
 * is the same file, a reused inode with other first bytes is a new one, and (following files) a
 * rotated copy continues its original. Decides only identity and phase; reading is the engine's.
 */
public final class FileCatalog {

  private static final Logger LOG = LoggerFactory.getLogger(FileCatalog.class);

  /** Followed streams without a file kept in memory for copies that may still appear. */
  private static final int DORMANT_MAX = 10_000;

  private final boolean followed;
  private final Heads heads;
  private final TaskShare share;
  private final long minAgeMs;
  private final LongSupplier clock;
  private final FileEvents events;
  private final Map<String, TrackedFile> byKey = new LinkedHashMap<>();
  private final Map<String, TrackedFile> byHandle = new HashMap<>();
  private final Map<String, TrackedFile> dormant = new LinkedHashMap<>();
  private final Set<String> unreadable = new HashSet<>();
  private final FollowedCopies copies;

  /**
   * @param followed file.tail=true: identity by content, copies continue their original
   * @param minAgeMs how long a finished file must be unmodified before it is read
   */
  public FileCatalog(
      boolean followed,
      Heads heads,
      TaskShare share,
      long minAgeMs,
      LongSupplier clock,
      FileEvents events) {
    this.followed = followed;
    this.heads = heads;
    this.share = share;
    this.minAgeMs = minAgeMs;
    this.clock = clock;
    this.events = events;
    this.copies = new FollowedCopies(heads);
  }

  /**
   * Applies a listing.
   *
   * @return the files identified by it, now {@link Phase#RESOLVING}: their committed offsets must
   *     be looked up ({@link #lookupKeys}) and given to {@link #resolve}
   */
  public List<TrackedFile> reconcile(List<FileStat> listing) {
    long now = clock.getAsLong();
    for (TrackedFile f : byKey.values()) {
      if (f.phase() == Phase.FAILED) {
        f.moveTo(Phase.READING);
      }
    }
    List<TrackedFile> fresh = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (FileStat stat : listing) {
      if (!followed && !share.owns(stat.handle())) {
        continue;
      }
      TrackedFile known = byHandle.get(stat.handle());
      boolean attached = known != null ? update(known, stat, now, fresh) : false;
      if (attached || identify(stat, now, fresh)) {
        seen.add(stat.handle());
      }
    }
    gone(seen, now);
    return fresh;
  }

  /** Whether the file still is what {@code known} says; updates its stat (a rename) if so. */
  private boolean update(TrackedFile known, FileStat stat, long now, List<TrackedFile> fresh) {
    boolean current = isCurrent(known, stat);
    FileStat before = current ? known.current() : known.copies().get(stat.handle());
    boolean doubted = current && known.takeDoubt();
    if ((doubted || !stat.unchangedSince(before)) && !sameContent(stat, known.verify())) {
      detach(known, stat.handle());
      return false;
    }
    if (!current) {
      return copies.updateCopy(this, known, before, stat, fresh);
    }
    known.current(stat);
    if (!stat.unchangedSince(before)) {
      changed(known, stat, now);
    }
    return true;
  }

  /** A known file whose size or time changed: shrunk below its offset, or grown. */
  private void changed(TrackedFile f, FileStat stat, long now) {
    if (!stat.compressed() && stat.size() < f.position() && f.phase() != Phase.RESOLVING) {
      events.shrank(f, stat.size(), f.position());
      f.closeReading();
      f.position(0, 0);
      f.moveTo(Phase.READING);
      return;
    }
    boolean grew = stat.compressed() || stat.size() > f.position();
    boolean settled = now - stat.modifiedMillis() >= minAgeMs;
    Phase p = f.phase();
    if (grew && (followed || settled) && (p == Phase.DONE || p == Phase.DRAINED)) {
      f.moveTo(Phase.READING);
    }
  }

  /** Identifies a file not known yet; false when it cannot be yet (too young, no first line). */
  private boolean identify(FileStat stat, long now, List<TrackedFile> fresh) {
    if (!followed && now - stat.modifiedMillis() < minAgeMs) {
      return false;
    }
    Heads.Start start = start(stat);
    if (start == null) {
      return false;
    }
    if (followed) {
      return share.owns(start.line().hash()) && copies.attach(this, stat, start, fresh);
    }
    FileKey key = FileKey.finished(start.content(), stat);
    if (byKey.containsKey(key.id())) {
      return false;
    }
    add(new TrackedFile(key, start.content(), start.content(), stat), fresh);
    return true;
  }

  /** The file's fingerprints, or null when it cannot be read or has no first line yet. */
  private Heads.Start start(FileStat stat) {
    try {
      Heads.Start start = followed ? heads.followed(stat) : heads.finished(stat);
      unreadable.remove(stat.handle());
      return start;
    } catch (java.nio.file.NoSuchFileException e) {
      return null; // gone since the listing
    } catch (IOException e) {
      if (unreadable.add(stat.handle())) {
        LOG.warn(
            "Cannot read {} ({}); it is tried again at every listing", stat.path(), e.toString());
      }
      return null;
    }
  }

  void add(TrackedFile f, List<TrackedFile> fresh) {
    byKey.put(f.key().id(), f);
    byHandle.put(f.current().handle(), f);
    fresh.add(f);
  }

  /** The followed stream whose key is {@code id}, or null. */
  TrackedFile stream(String id) {
    return byKey.get(id);
  }

  /** Makes {@code stat} a copy of {@code f}, which reads it when it has no file of its own. */
  void attachCopy(TrackedFile f, FileStat stat) {
    f.copies().put(stat.handle(), stat);
    byHandle.put(stat.handle(), f);
    dormant.remove(f.key().id());
    if (f.current() == null) {
      adopt(f);
    }
  }

  void detachCopy(TrackedFile f, String handle) {
    f.copies().remove(handle);
    byHandle.remove(handle);
  }

  /** A stream without a file goes on in its largest copy (plain files before gzip). */
  private void adopt(TrackedFile f) {
    FileStat next =
        f.copies().values().stream()
            .max(
                Comparator.comparing((FileStat s) -> !s.compressed())
                    .thenComparingLong(FileStat::size))
            .orElse(null);
    if (next == null) {
      sleep(f);
      return;
    }
    f.copies().remove(next.handle());
    f.current(next);
    f.closeReading();
    f.unlisted(false, clock.getAsLong());
    if (f.phase() != Phase.RESOLVING) {
      f.moveTo(Phase.READING);
    }
    LOG.info("{} continues in {} from byte {}", f.key().id(), next.path(), f.position());
  }

  /** The file's handle no longer holds its content (truncated, rewritten). */
  private void detach(TrackedFile f, String handle) {
    if (!isCurrent(f, handle)) {
      detachCopy(f, handle);
      return;
    }
    byHandle.remove(handle);
    f.closeReading();
    f.current(null);
    if (followed) {
      adopt(f);
    } else {
      forget(f);
    }
  }

  private void gone(Set<String> seen, long now) {
    for (TrackedFile f : List.copyOf(byKey.values())) {
      for (String handle : List.copyOf(f.copies().keySet())) {
        if (!seen.contains(handle)) {
          detachCopy(f, handle);
        }
      }
      FileStat current = f.current();
      if (current == null || seen.contains(current.handle())) {
        if (current != null && f.unlisted()) {
          f.unlisted(false, now);
        }
        continue;
      }
      if (followed && f.reading() != null) {
        if (!f.unlisted()) {
          f.unlisted(true, now); // read on through the open handle, then release
        }
        continue;
      }
      if (!followed && f.phase() != Phase.DONE && f.phase() != Phase.DRAINED) {
        events.vanished(f);
      }
      detach(f, current.handle());
    }
  }

  /** A followed file whose name went away was read to its end and closed. */
  public void released(TrackedFile f) {
    if (f.current() != null) {
      detach(f, f.current().handle());
    }
  }

  /** Keeps a followed stream without a file, for a copy that may still appear. */
  private void sleep(TrackedFile f) {
    events.dormant(f);
    dormant.remove(f.key().id());
    dormant.put(f.key().id(), f);
    if (dormant.size() > DORMANT_MAX) {
      String eldest = dormant.keySet().iterator().next();
      dormant.remove(eldest);
      TrackedFile evicted = byKey.remove(eldest);
      if (evicted != null) {
        events.forgotten(evicted);
      }
    }
  }

  /** Forgets a file entirely (completed and removed, or gone). */
  public void forget(TrackedFile f) {
    f.closeReading();
    byKey.remove(f.key().id());
    dormant.remove(f.key().id());
    if (f.current() != null) {
      byHandle.remove(f.current().handle(), f);
    }
    for (String handle : f.copies().keySet()) {
      byHandle.remove(handle, f);
    }
    events.forgotten(f);
  }

  /** The keys whose committed offsets decide where a resolving file goes on. */
  public List<FileKey> lookupKeys(TrackedFile f) {
    return followed ? copies.lookupKeys(f) : List.of(f.key());
  }

  /**
   * Positions a resolving file at its committed offset (none: its start) and makes it readable.
   *
   * @param committed offsets by key id, for the keys of {@link #lookupKeys}
   */
  public void resolve(TrackedFile f, Map<String, FileOffset> committed) {
    FileOffset offset =
        followed ? copies.resolveFollowed(this, f, committed) : committed.get(f.key().id());
    long position = offset == null ? 0 : offset.position();
    long line = offset == null ? 0 : offset.line();
    f.emitted(-1);
    FileStat current = f.current();
    boolean sameFile =
        offset != null && (offset.handle() == null || offset.handle().equals(current.handle()));
    if (sameFile && !current.compressed() && current.size() < position) {
      events.shrank(f, current.size(), position);
      position = 0;
      line = 0;
    }
    f.position(position, line);
    f.moveTo(Phase.READING);
  }

  void rekey(TrackedFile f, FileKey key) {
    byKey.remove(f.key().id());
    f.rekey(key);
    byKey.put(key.id(), f);
  }

  /** Every known file. */
  public List<TrackedFile> files() {
    return List.copyOf(byKey.values());
  }

  /** Files with bytes to read now, oldest first (followed files in the order they came). */
  public List<TrackedFile> readable() {
    List<TrackedFile> out = new ArrayList<>();
    for (TrackedFile f : byKey.values()) {
      if (f.phase() == Phase.READING && f.current() != null) {
        out.add(f);
      }
    }
    if (!followed) {
      out.sort(
          Comparator.comparingLong((TrackedFile f) -> f.current().modifiedMillis())
              .thenComparing(f -> f.current().relative()));
    }
    return out;
  }

  /** Files in {@code phase} that have a file. */
  public List<TrackedFile> inPhase(Phase phase) {
    List<TrackedFile> out = new ArrayList<>();
    for (TrackedFile f : byKey.values()) {
      if (f.phase() == phase && f.current() != null) {
        out.add(f);
      }
    }
    return out;
  }

  boolean sameContent(FileStat stat, Head head) {
    try {
      return head == null || heads.matches(stat, head);
    } catch (IOException e) {
      return true; // unreadable now: reading it will tell
    }
  }

  private static boolean isCurrent(TrackedFile f, FileStat stat) {
    return isCurrent(f, stat.handle());
  }

  private static boolean isCurrent(TrackedFile f, String handle) {
    return f.current() != null && f.current().handle().equals(handle);
  }
}
