package io.skippr.connect.cli.compact;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.cli.lake.OneLineErrors;
import io.skippr.connect.cli.lease.HeldLease;
import io.skippr.connect.lake.log.LakeIdentity;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.OrphanSweeper;
import io.skippr.connect.lake.log.ProgressMirror;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.log.TpRecovery;
import io.skippr.connect.lake.maintenance.CompactionConfig;
import io.skippr.connect.lake.maintenance.LakeMaintenance;
import io.skippr.connect.lake.publish.CommitListener;
import io.skippr.connect.lake.publish.CommitListeners;
import io.skippr.connect.lake.publish.ListenerFactory;
import io.skippr.connect.lake.publish.OpenedTp;
import io.skippr.connect.lake.state.MaintenanceLease;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.write.LakeSinkConfig;
import io.skippr.connect.state.api.PipelineScopeConfig;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStores;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code skippr compact}: the lake maintenance of a stopped lake sink connector, offline. */
@Command(
    name = "compact",
    mixinStandardHelpOptions = true,
    description = {
      "Runs one maintenance pass over the lake of a stopped lake sink connector: merges its small"
          + " files (and writes the current state of merge_by_key tables), expires partition"
          + " paths past retention.ms and deletes retired files past compaction.grace.ms, through"
          + " each partition's log, as the connector's tasks do while they run.",
      "The connector's settings are read from Connect's REST API. It must be stopped (PUT"
          + " /connectors/NAME/stop): its tasks would otherwise own the partitions. The command"
          + " holds the lease compact/NAME in the state store meanwhile; tasks started during it"
          + " skip their own maintenance passes.",
      "Exit code 0 when the pass ran, 1 with a one-line reason otherwise."
    })
public final class CompactCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Option(
      names = "--connector",
      required = true,
      paramLabel = "NAME",
      description = "The lake sink connector.")
  String connector;

  @Option(
      names = "--connect-url",
      defaultValue = "http://127.0.0.1:8083",
      paramLabel = "URL",
      description = "Connect's REST API (default: ${DEFAULT-VALUE}).")
  String connectUrl;

  @Option(names = "--table", paramLabel = "TABLE", description = "Only this table.")
  String table;

  @Option(
      names = "--output",
      defaultValue = "text",
      paramLabel = "text|json",
      description = "text: one summary line; json: one JSON document.")
  String output;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    return OneLineErrors.run(
        spec,
        out -> {
          out.println(run());
          return 0;
        });
  }

  private String run() throws IOException, InterruptedException {
    ConnectorSettings settings = ConnectorSettings.read(connectUrl, connector);
    Map<String, String> config = settings.config();
    LakeSinkConfig lake = new LakeSinkConfig(config);
    try (StateStore store = StateStores.open(config);
        HeldLease lease =
            new HeldLease(
                store,
                PipelineScopeConfig.from(config),
                MaintenanceLease.id(connector),
                "skippr compact",
                MaintenanceLease.DURATION);
        LakeStorage storage = lake.storage().open()) {
      Optional<String> holder = lease.take(false, h -> {});
      if (holder.isPresent()) {
        throw new CompactException(connector + "'s lake is being maintained by " + holder.get());
      }
      Map<TopicPartition, TpLog> logs = claim(storage, settings.partitionsIn(storage), lake);
      LakeMaintenance.Settings configured = lake.maintenance();
      CompactionConfig.Settings compaction = configured.compaction();
      // Offline maintenance merges even when the connector leaves merging to it.
      LakeMaintenance.Settings offline =
          new LakeMaintenance.Settings(
              new CompactionConfig.Settings(
                  true,
                  compaction.targetBytes(),
                  compaction.minFiles(),
                  compaction.intervalMs(),
                  compaction.graceMs()),
              configured.policy(),
              configured.retention(),
              configured.times(),
              configured.format());
      LakeMaintenance maintenance =
          LakeMaintenance.create(
              offline, storage, () -> logs, System::currentTimeMillis, "compact");
      if (table != null) {
        maintenance.onlyTables(table::equals);
      }
      try (CommitListener listener = listener(config, storage, logs)) {
        maintenance.telling(listener).pass();
      } // closing it registers what the pass changed (Iceberg tables), within its bound
      if (maintenance.failures() > 0) {
        throw new CompactException(
            maintenance.failures() + " partition(s) failed their pass (see the warnings above)");
      }
      return report(logs.size(), maintenance);
    }
  }

  /**
   * Claims each TP as the connector's tasks do when they open it (the same recovery: checks, new
   * epoch, abandoned merge, finished moves, orphans deleted), so a task of the stopped connector
   * still running is fenced; its pending unit stays for the next task to replay.
   */
  private static Map<TopicPartition, TpLog> claim(
      LakeStorage storage, List<TopicPartition> partitions, LakeSinkConfig lake)
      throws IOException {
    Map<TopicPartition, TpLog> logs = new LinkedHashMap<>();
    if (partitions.isEmpty()) {
      return logs;
    }
    LakeLayout layout = new LakeLayout();
    TpRecovery recovery =
        new TpRecovery(
            storage,
            layout,
            LakeIdentity.require(storage, layout),
            ProgressMirror.NONE,
            lake.configFingerprint(),
            "skippr compact");
    OrphanSweeper sweeper = new OrphanSweeper(storage, layout);
    for (TopicPartition tp : partitions) {
      logs.put(tp, recovery.claim(tp.topic(), tp.partition(), System.currentTimeMillis(), sweeper));
    }
    return logs;
  }

  /**
   * The listener the connector's tasks tell (an Iceberg registrar with {@code iceberg.enabled}),
   * told that this run owns the TPs now: it registers what the tasks left unregistered, then the
   * pass's merges and expiries.
   */
  private static CommitListener listener(
      Map<String, String> config, LakeStorage storage, Map<TopicPartition, TpLog> logs)
      throws IOException {
    ListenerFactory factory = CommitListeners.configured(config);
    if (factory == ListenerFactory.NONE) {
      return CommitListener.NONE;
    }
    LakeIdentity lake =
        LakeIdentity.read(storage, new LakeLayout())
            .orElseThrow(() -> new CompactException("the lake has no identity yet"));
    CommitListener listener = factory.open(storage, lake, "skippr compact");
    logs.forEach(
        (tp, log) ->
            listener.opened(
                new OpenedTp(
                    tp,
                    log.epoch(),
                    log.state().lastSeq(),
                    List.copyOf(log.state().liveFiles().values()))));
    return listener;
  }

  private String report(int partitions, LakeMaintenance maintenance) throws IOException {
    if ("json".equals(output)) {
      ObjectNode doc = JSON.createObjectNode();
      doc.put("connector", connector)
          .put("partitions", partitions)
          .put("merges", maintenance.merges())
          .put("files_merged", maintenance.filesMerged())
          .put("files_expired", maintenance.filesExpired())
          .put("files_deleted", maintenance.filesDeleted());
      return JSON.writeValueAsString(doc);
    }
    return String.format(
        "skippr compact: %s: %d partition(s): %d file(s) merged into %d, %d expired, %d retired"
            + " file(s) deleted",
        connector,
        partitions,
        maintenance.filesMerged(),
        maintenance.merges(),
        maintenance.filesExpired(),
        maintenance.filesDeleted());
  }
}
