package io.skippr.connect.cli.sync;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * How {@code skippr sync} runs a pipeline: the {@code sync} mapping of the pipeline in skippr.yml
 * ({@code sync: {idle.ms: 5000}} is {@code sync.idle.ms}).
 */
final class SyncConfig extends AbstractConfig {
  static final String IDLE_MS = "sync.idle.ms";
  private static final String IDLE_MS_DOC =
      "With --once: the source is caught up when it gave no record for this long (counted from"
          + " when its tasks started, or from its last record), or when it reports it has read"
          + " everything there is; the run then commits what it read and exits.";

  static final String LEASE_MS = "sync.lease.ms";
  private static final String LEASE_MS_DOC =
      "One run per pipeline holds the lease sync/{pipeline} in the state store and renews it every"
          + " third of this. Another run takes over once the holder's heartbeat stood still this"
          + " long (at once when the holder was a process of this host that no longer runs).";

  static final String SHUTDOWN_TIMEOUT_MS = "sync.shutdown.timeout.ms";
  private static final String SHUTDOWN_TIMEOUT_MS_DOC =
      "On SIGTERM or at the end of a --once run: how long stopping the source and committing what"
          + " it read may take before the run gives up (what it did not commit is read again by"
          + " the next run).";

  static final ConfigDef CONFIG_DEF =
      new ConfigDef()
          .define(IDLE_MS, Type.LONG, 5_000L, Range.atLeast(100), Importance.MEDIUM, IDLE_MS_DOC)
          .define(LEASE_MS, Type.LONG, 30_000L, Range.atLeast(1_000), Importance.LOW, LEASE_MS_DOC)
          .define(
              SHUTDOWN_TIMEOUT_MS,
              Type.LONG,
              60_000L,
              Range.atLeast(1_000),
              Importance.LOW,
              SHUTDOWN_TIMEOUT_MS_DOC);

  SyncConfig(Map<String, String> props) {
    super(CONFIG_DEF, props, false);
  }

  Duration idle() {
    return Duration.ofMillis(getLong(IDLE_MS));
  }

  Duration lease() {
    return Duration.ofMillis(getLong(LEASE_MS));
  }

  Duration shutdownTimeout() {
    return Duration.ofMillis(getLong(SHUTDOWN_TIMEOUT_MS));
  }
}
