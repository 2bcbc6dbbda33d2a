package io.skippr.connect.source.file.track;

import io.skippr.connect.source.file.scan.FileStat;
import io.skippr.connect.source.file.scan.Head;
import io.skippr.connect.source.file.scan.Heads;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * How followed files (file.tail=true) are matched by content. A file that begins with the same line
 * as a known stream, and shares its first {@code file.fingerprint.bytes}, is a copy of it
 * (logrotate's copytruncate, a compressed rotation) and is read only when the stream has no file of
 * its own, from the stream's position. A "copy" that grows while its original is there, or whose
 * first bytes differ, is a different file and gets a key of its own.
 */
final class FollowedCopies {

  private final Heads heads;

  FollowedCopies(Heads heads) {
    this.heads = heads;
  }

  /** Attaches a newly seen file to its stream, or starts a stream (resolving) for it. */
  boolean attach(FileCatalog catalog, FileStat stat, Heads.Start start, List<TrackedFile> fresh) {
    Head head = start.line();
    FileKey key = FileKey.followed(head);
    TrackedFile stream = catalog.stream(key.id());
    if (stream != null) {
      if (catalog.sameContent(stat, stream.verify()) && stream.verify() != null) {
        catalog.attachCopy(stream, stat);
        return true;
      }
      key = FileKey.followedDistinct(head, stat);
      if (catalog.stream(key.id()) != null) {
        return false;
      }
    }
    catalog.add(new TrackedFile(key, head, start.content(), stat), fresh);
    return true;
  }

  /** A copy changed: one that grows beside a live original is a file of its own. */
  boolean updateCopy(
      FileCatalog catalog,
      TrackedFile stream,
      FileStat before,
      FileStat stat,
      List<TrackedFile> fresh) {
    boolean grows = before != null && !stat.compressed() && stat.size() > before.size();
    if (grows && stream.current() != null) {
      catalog.detachCopy(stream, stat.handle());
      Head verify;
      try {
        verify = heads.content(stat);
      } catch (IOException e) {
        return false;
      }
      FileKey own = FileKey.followedDistinct(stream.head(), stat);
      catalog.add(new TrackedFile(own, stream.head(), verify, stat), fresh);
      return true;
    }
    stream.copies().put(stat.handle(), stat);
    return true;
  }

  /** The stream's key, and the key the file would have if it turned out not to be a copy. */
  List<FileKey> lookupKeys(TrackedFile f) {
    FileKey distinct = FileKey.followedDistinct(f.head(), f.current());
    return f.key().equals(distinct) ? List.of(f.key()) : List.of(f.key(), distinct);
  }

  /**
   * The offset a resolving followed file goes on from: its own key's when it has one (a file that
   * was found to differ from its namesake), else the stream's when the file is the stream's file or
   * a verified copy of it, else none (a different file that begins with the same line).
   */
  FileOffset resolveFollowed(
      FileCatalog catalog, TrackedFile f, Map<String, FileOffset> committed) {
    FileKey distinct = FileKey.followedDistinct(f.head(), f.current());
    FileOffset own = committed.get(distinct.id());
    if (own != null && !f.key().equals(distinct)) {
      catalog.rekey(f, distinct);
      return own;
    }
    FileOffset offset = committed.get(f.key().id());
    if (offset == null) {
      return null;
    }
    boolean sameFile = offset.handle() == null || offset.handle().equals(f.current().handle());
    if (!sameFile
        && offset.verify() != null
        && !catalog.sameContent(f.current(), offset.verify())) {
      catalog.rekey(f, distinct);
      return null;
    }
    if (offset.verify() != null) {
      f.verify(offset.verify());
    }
    return offset;
  }
}
