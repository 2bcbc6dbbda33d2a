package io.skippr.connect.source.file.track;

import io.skippr.connect.source.file.scan.FileStat;
import io.skippr.connect.source.file.scan.Head;
import java.util.Map;

/**
 * A file's identity as Connect stores it: the source partition {@code {"file": id}} (one entry, so
 * its JSON encoding, the key of the offsets topic, never depends on map order).
 *
 * <ul>
 *   <li>Finished files (file.tail=false): {@code ino:<dev>:<ino>:<head>} — device and inode plus
 *       the fingerprint of the first bytes, so a reused inode with other content is another file;
 *       {@code path:<relative>:<head>} where the file system has no inodes.
 *   <li>Followed files (file.tail=true): {@code head:<first line>} — the content, so a renamed,
 *       copied or compressed file continues its original's offsets; {@code head:<…>:<inode>} for a
 *       different file that merely begins with the same line.
 * </ul>
 *
 * @param id the identity
 * @param assignment what decides the task that reads it (the same for a file and its copies)
 */
public record FileKey(String id, String assignment) {

  /** The partition map's only key. */
  public static final String PARTITION_KEY = "file";

  public static FileKey finished(Head head, FileStat file) {
    String where = file.inode() != null ? "ino:" + file.inode() : "path:" + file.relative();
    return new FileKey(where + ":" + head.hash(), file.handle());
  }

  public static FileKey followed(Head head) {
    return new FileKey("head:" + head.hash(), head.hash());
  }

  public static FileKey followedDistinct(Head head, FileStat file) {
    return new FileKey("head:" + head.hash() + ":" + file.handle(), head.hash());
  }

  /** The source partition of this file's records. */
  public Map<String, Object> partition() {
    return Map.of(PARTITION_KEY, id);
  }

  /** The id in a source partition, or null when it is not one of ours. */
  public static String idOf(Map<String, ?> partition) {
    Object id = partition == null ? null : partition.get(PARTITION_KEY);
    return id instanceof String s ? s : null;
  }
}
