package io.skippr.connect.source.file.scan;

import java.nio.file.Path;

/**
 * One file as a listing saw it.
 *
 * @param path the file
 * @param relative its path under file.dir, with '/' separators
 * @param inode {@code dev:ino} where the file system has them, else null
 * @param size its size in bytes (compressed size for .gz)
 * @param modifiedMillis its last modification time
 * @param compressed true for .gz files, read decompressed
 */
public record FileStat(
    Path path, String relative, String inode, long size, long modifiedMillis, boolean compressed) {

  /** What tells this file apart from others while it is open: its inode, else its path. */
  public String handle() {
    return inode != null ? inode : "path:" + relative;
  }

  /** True when size and modification time are the same as {@code other}'s. */
  public boolean unchangedSince(FileStat other) {
    return other != null && size == other.size && modifiedMillis == other.modifiedMillis;
  }
}
