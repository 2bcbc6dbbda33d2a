package io.skippr.connect.source.file.config;

import java.nio.file.Path;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/** What becomes of a file that was read to its end. */
public final class CompletionConfig {

  public static final String POLICY = "file.completed.policy";
  public static final String DIR = "file.completed.dir";

  /**
   * @param policy keep, delete or move
   * @param dir where {@code move} puts files (their path under file.dir kept), or null
   */
  public record Values(CompletedPolicy policy, Path dir) {}

  private CompletionConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            POLICY,
            Type.STRING,
            "keep",
            ConfigDef.CaseInsensitiveValidString.in("keep", "delete", "move"),
            Importance.MEDIUM,
            "What happens to a file read to its end (file.tail=false), and only once Kafka"
                + " committed the offset of its last record: keep (it stays, and is not read"
                + " again unless it grows), delete, or move to file.completed.dir. No marker files"
                + " are written; a file whose records are not committed yet stays where it is.")
        .define(
            DIR,
            Type.STRING,
            "",
            Importance.MEDIUM,
            "Directory that file.completed.policy=move moves files to, keeping their path"
                + " relative to file.dir (an existing name gets a numbered suffix). Never listed,"
                + " even when it lies inside file.dir.");
  }

  public static Values from(AbstractConfig c) {
    String dir = c.getString(DIR);
    return new Values(
        CompletedPolicy.parse(c.getString(POLICY)),
        dir.isBlank() ? null : Path.of(dir).toAbsolutePath().normalize());
  }
}
