package io.skippr.connect.lake.storage;

/** Rules for object keys shared by every {@link LakeStorage}. */
public final class StorageKeys {
  private StorageKeys() {}

  /**
   * Returns {@code key} when it is a valid object key.
   *
   * @throws IllegalArgumentException naming the rule the key breaks
   */
  public static String check(String key) {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("object key must not be empty");
    }
    if (key.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("object key must not contain NUL: " + key);
    }
    for (String segment : key.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException(
            "object key must consist of non-empty segments other than '.' and '..': " + key);
      }
    }
    return key;
  }

  /** Joins non-empty parts with {@code /}, ignoring empty ones and stray separators. */
  public static String join(String... parts) {
    StringBuilder out = new StringBuilder();
    for (String part : parts) {
      String trimmed = trimSlashes(part);
      if (trimmed.isEmpty()) {
        continue;
      }
      if (out.length() > 0) {
        out.append('/');
      }
      out.append(trimmed);
    }
    return out.toString();
  }

  /** The part after the last {@code /}. */
  public static String baseName(String key) {
    return key.substring(key.lastIndexOf('/') + 1);
  }

  static String trimSlashes(String part) {
    if (part == null) {
      return "";
    }
    int from = 0;
    int to = part.length();
    while (from < to && part.charAt(from) == '/') {
      from++;
    }
    while (to > from && part.charAt(to - 1) == '/') {
      to--;
    }
    return part.substring(from, to);
  }
}
