package io.skippr.connect.source.file.config;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/** Which files are read, when a file counts as ready, and how files are told apart. */
public final class DirectoryConfig {

  public static final String DIR = "file.dir";
  public static final String PATTERN = "file.pattern";
  public static final String RECURSIVE = "file.recursive";
  public static final String TAIL = "file.tail";
  public static final String MIN_AGE_MS = "file.min.age.ms";
  public static final String POLL_INTERVAL_MS = "poll.interval.ms";
  public static final String FINGERPRINT_BYTES = "file.fingerprint.bytes";

  /**
   * @param dir the directory to read
   * @param pattern glob matched against a file's path relative to {@code dir}
   * @param recursive whether subdirectories are read
   * @param tail follow files as they grow (log files) instead of reading finished files once
   * @param minAgeMs how long a file must be unmodified before it is read (not tailing)
   * @param pollIntervalMs how often the directory is listed
   * @param fingerprintBytes how many first bytes identify a file's content
   */
  public record Values(
      Path dir,
      String pattern,
      boolean recursive,
      boolean tail,
      long minAgeMs,
      long pollIntervalMs,
      int fingerprintBytes) {

    /** The matcher of {@link #pattern()}. */
    public PathMatcher matcher() {
      return FileSystems.getDefault().getPathMatcher("glob:" + pattern);
    }
  }

  private DirectoryConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            DIR,
            Type.STRING,
            ConfigDef.NO_DEFAULT_VALUE,
            new ConfigDef.NonEmptyString(),
            Importance.HIGH,
            "Directory to read. Every worker that may run a task of the connector must see it"
                + " (a local directory with one worker, or a shared file system).")
        .define(
            PATTERN,
            Type.STRING,
            "*",
            GLOB,
            Importance.HIGH,
            "Glob of the files to read, matched against the path relative to file.dir: '*' and '?'"
                + " stay within one path segment, '**' crosses them (with file.recursive,"
                + " '**.csv' matches CSV files at any depth, '*/*.csv' one level down). Names ending"
                + " in .gz are decompressed while read.")
        .define(
            RECURSIVE,
            Type.BOOLEAN,
            false,
            Importance.MEDIUM,
            "Also list the subdirectories of file.dir (file.pattern is matched against the"
                + " relative path, e.g. '2024/*/*.ndjson' or '**'). file.completed.dir is never"
                + " listed.")
        .define(
            TAIL,
            Type.BOOLEAN,
            false,
            Importance.HIGH,
            "false: a file is read to its end once it has not changed for file.min.age.ms"
                + " (exports dropped in a directory), then completed (file.completed.policy)."
                + " true: files are followed as they grow (log files), across rename and"
                + " copytruncate rotation; a line is read once its newline is written, and"
                + " file.completed.policy must be keep.")
        .define(
            MIN_AGE_MS,
            Type.LONG,
            5_000L,
            Range.atLeast(0),
            Importance.MEDIUM,
            "With file.tail=false, a file is read only once it has not been modified for this"
                + " long (files must be complete when read; write them elsewhere and rename them"
                + " into file.dir to be safe). With file.tail=true, how long a file whose name no"
                + " longer matches must stay unchanged before it is closed.")
        .define(
            POLL_INTERVAL_MS,
            Type.LONG,
            1_000L,
            Range.between(10, 3_600_000),
            Importance.MEDIUM,
            "How often the directory is listed for new, grown, renamed and removed files. A"
                + " followed file (file.tail=true) is also checked for new lines between listings,"
                + " every 100 ms or this interval, whichever is shorter.")
        .define(
            FINGERPRINT_BYTES,
            Type.INT,
            1024,
            Range.between(16, 1 << 20),
            Importance.LOW,
            "How many first bytes of a file's content (decompressed for .gz) tell files apart"
                + " together with device and inode: a file whose first bytes changed is new"
                + " content even on a reused inode. With file.tail=true a file is identified by"
                + " its first line (at most this many bytes) so a rotated copy, also compressed,"
                + " continues where the original was.");
  }

  public static Values from(AbstractConfig c) {
    return new Values(
        Path.of(c.getString(DIR)).toAbsolutePath().normalize(),
        c.getString(PATTERN),
        c.getBoolean(RECURSIVE),
        c.getBoolean(TAIL),
        c.getLong(MIN_AGE_MS),
        c.getLong(POLL_INTERVAL_MS),
        c.getInt(FINGERPRINT_BYTES));
  }

  private static final ConfigDef.Validator GLOB =
      new ConfigDef.Validator() {
        @Override
        public void ensureValid(String name, Object value) {
          String text = (String) value;
          if (text == null || text.isEmpty()) {
            throw new ConfigException(name, value, "must not be empty ('*' matches every file)");
          }
          try {
            FileSystems.getDefault().getPathMatcher("glob:" + text);
          } catch (IllegalArgumentException e) {
            throw new ConfigException(name, value, "not a glob: " + e.getMessage());
          }
        }

        @Override
        public String toString() {
          return "a glob such as *.csv, app.log* or **.ndjson";
        }
      };
}
