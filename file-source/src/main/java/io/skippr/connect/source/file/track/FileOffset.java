package io.skippr.connect.source.file.track;

import io.skippr.connect.source.file.scan.Head;
import java.util.HashMap;
import java.util.Map;

/**
 * Where reading a file goes on: the byte position after the last record and the lines up to it.
 * Followed files also record the inode read and the fingerprint their copies must share.
 *
 * @param position byte position (decompressed for gzip) where the next record starts
 * @param line lines consumed up to {@code position}
 * @param path the file's path under file.dir when the record was read (for people)
 * @param handle the inode (or path) read, or null
 * @param verify the fingerprint of the first bytes a copy must share, or null
 */
public record FileOffset(long position, long line, String path, String handle, Head verify) {

  public static final String POSITION = "pos";
  public static final String LINE = "line";
  public static final String PATH = "path";
  public static final String HANDLE = "inode";
  public static final String VERIFY_HASH = "vhash";
  public static final String VERIFY_LENGTH = "vlen";

  /** The offset map of a record. */
  public Map<String, Object> toMap() {
    if (handle == null) {
      return Map.of(POSITION, position, LINE, line, PATH, path);
    }
    Map<String, Object> map = new HashMap<>(12);
    map.put(POSITION, position);
    map.put(LINE, line);
    map.put(PATH, path);
    map.put(HANDLE, handle);
    if (verify != null) {
      map.put(VERIFY_HASH, verify.hash());
      map.put(VERIFY_LENGTH, (long) verify.length());
    }
    return map;
  }

  /**
   * Reads an offset map as Connect returns it (numbers as Long or Integer).
   *
   * @throws IllegalArgumentException when it lacks a valid position
   */
  public static FileOffset fromMap(Map<String, ?> map) {
    long position = number(map, POSITION, true);
    long line = map.containsKey(LINE) ? number(map, LINE, false) : 0L;
    Object hash = map.get(VERIFY_HASH);
    Object length = map.get(VERIFY_LENGTH);
    Head verify =
        hash instanceof String h && length instanceof Number n ? new Head(h, n.intValue()) : null;
    return new FileOffset(position, line, string(map.get(PATH)), string(map.get(HANDLE)), verify);
  }

  private static long number(Map<String, ?> map, String key, boolean required) {
    Object value = map.get(key);
    if (value instanceof Number n && n.longValue() >= 0 && n.doubleValue() == n.longValue()) {
      return n.longValue();
    }
    if (value == null && !required) {
      return 0L;
    }
    throw new IllegalArgumentException(
        "offset " + map + " needs '" + key + "' as a non-negative integer");
  }

  private static String string(Object value) {
    return value instanceof String s ? s : null;
  }
}
