package io.skippr.connect.source.file;

import io.skippr.connect.source.common.SkipprSourceConnector;
import io.skippr.connect.source.file.commit.OffsetMirror;
import io.skippr.connect.source.file.commit.StoreOffsetMirror;
import io.skippr.connect.source.file.config.FileSourceChecks;
import io.skippr.connect.source.file.config.FileSourceConfig;
import io.skippr.connect.source.file.config.OffsetMirrorConfig;
import io.skippr.connect.source.file.track.FileKey;
import io.skippr.connect.source.file.track.FileOffset;
import io.skippr.connect.source.file.track.TaskShare;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Reads NDJSON, CSV and line protocol files from a directory: finished files once (then keeps,
 * deletes or moves them after Kafka committed their last record), or log files as they grow, across
 * rotation. Files are identified by device, inode and first bytes, never by name; offsets are byte
 * positions, so a restart seeks to where it was. Exactly-once capable: records and the offset after
 * them are committed in one transaction (with transaction.boundary=connector, each poll's batch is
 * one).
 *
 * <p>Every task lists the directory and reads the files whose identity hashes to its number.
 */
public final class FileSourceConnector extends SkipprSourceConnector {

  @Override
  protected void configure(Map<String, String> props) {
    FileSourceConfig.from(props);
  }

  @Override
  public Class<? extends Task> taskClass() {
    return FileSourceTask.class;
  }

  /** One config per task, each naming its share of the files. */
  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    return taskConfigs(
        maxTasks,
        task ->
            Map.of(
                TaskShare.INDEX, Integer.toString(task),
                TaskShare.COUNT, Integer.toString(maxTasks)));
  }

  @Override
  public ConfigDef config() {
    return FileSourceConfig.CONFIG_DEF;
  }

  @Override
  protected Map<String, String> problems(Map<String, String> connectorConfigs) {
    return FileSourceChecks.problems(connectorConfigs);
  }

  /**
   * Accepts offsets this connector writes ({@code {"file": id}} → {@code {"pos": n, "line": n, …}})
   * and resets (null); applies them to the state store's mirror too, so a resumed task does not go
   * back to the old mirrored position.
   */
  @Override
  public boolean alterOffsets(
      Map<String, String> connectorConfig, Map<Map<String, ?>, Map<String, ?>> offsets) {
    for (Map.Entry<Map<String, ?>, Map<String, ?>> e : offsets.entrySet()) {
      if (FileKey.idOf(e.getKey()) == null || e.getKey().size() != 1) {
        throw new ConnectException(
            "not a file source partition (expected {\"file\": \"<id>\"}): " + e.getKey());
      }
      if (e.getValue() != null) {
        try {
          FileOffset.fromMap(e.getValue());
        } catch (IllegalArgumentException bad) {
          throw new ConnectException(bad.getMessage(), bad);
        }
      }
    }
    if (mirrorMode(connectorConfig) != OffsetMirrorConfig.Mode.OFF) {
      try (OffsetMirror mirror = StoreOffsetMirror.openStore(connectorConfig)) {
        mirror.alter(offsets);
      } catch (RuntimeException e) {
        throw new ConnectException(
            "The offsets cannot be applied to the state store's mirror ("
                + e.getMessage()
                + "); a task would resume from the old mirrored offsets where Kafka has none."
                + " Retry, or set "
                + OffsetMirrorConfig.MIRROR
                + "=off",
            e);
      }
    }
    return true;
  }

  private static OffsetMirrorConfig.Mode mirrorMode(Map<String, String> config) {
    String mode = config.getOrDefault(OffsetMirrorConfig.MIRROR, "auto");
    return OffsetMirrorConfig.Mode.valueOf(mode.trim().toUpperCase(java.util.Locale.ROOT));
  }
}
