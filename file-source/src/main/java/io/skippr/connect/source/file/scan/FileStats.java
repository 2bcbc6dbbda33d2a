package io.skippr.connect.source.file.scan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads a file's identity attributes: device and inode where the file system has them. */
public final class FileStats {

  /** How the JDK prints a Unix file key. */
  private static final Pattern UNIX_KEY = Pattern.compile("\\(dev=([0-9a-fA-F]+),ino=(\\d+)\\)");

  private static final boolean UNIX_VIEW =
      java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("unix");

  private FileStats() {}

  /** The stat of a file found by a listing, from the attributes the walk already read. */
  public static FileStat of(Path path, String relative, BasicFileAttributes attrs)
      throws IOException {
    return new FileStat(
        path,
        relative,
        inode(path, attrs),
        attrs.size(),
        attrs.lastModifiedTime().toMillis(),
        relative.toLowerCase(Locale.ROOT).endsWith(".gz"));
  }

  /** The stat of a file now, or null when it is gone. */
  public static FileStat of(Path path, String relative) {
    try {
      return of(path, relative, Files.readAttributes(path, BasicFileAttributes.class));
    } catch (IOException e) {
      return null;
    }
  }

  private static String inode(Path path, BasicFileAttributes attrs) throws IOException {
    Object key = attrs.fileKey();
    if (key != null) {
      Matcher m = UNIX_KEY.matcher(key.toString());
      if (m.matches()) {
        return Long.parseLong(m.group(1), 16) + ":" + m.group(2);
      }
    }
    if (!UNIX_VIEW) {
      return null;
    }
    Map<String, Object> unix = Files.readAttributes(path, "unix:dev,ino");
    return unix.get("dev") + ":" + unix.get("ino");
  }
}
