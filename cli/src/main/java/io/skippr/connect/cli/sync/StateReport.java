package io.skippr.connect.cli.sync;

import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.state.api.Leases;
import io.skippr.connect.state.api.MonotonicTicker;
import io.skippr.connect.state.api.StateEntry;
import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What {@code skippr state show} prints: the pipeline's source offsets (as the next run resumes
 * them), sink progress, leases and the names of its secrets. Secret values are never read.
 */
final class StateReport {
  private final SyncState state;

  StateReport(SyncState state) {
    this.state = state;
  }

  void print(PrintWriter out) throws IOException {
    SyncPipeline pipeline = state.pipeline();
    StateScope scope = pipeline.scope();
    StateStore store = state.store();
    out.println(
        "pipeline "
            + String.join("/", scope.tenant(), scope.workspace(), scope.pipeline())
            + " in "
            + store.describe()
            + ", lake "
            + state.lake().location());

    Map<Map<String, Object>, Map<String, Object>> offsets = state.sourceOffsets();
    Map<Integer, LogEntry.SourcePosition> behind = state.behindTheLake();
    out.println("source offsets of " + pipeline.connectorName() + ": " + offsets.size());
    offsets.forEach(
        (partition, offset) ->
            out.println(
                "  "
                    + SyncPartitions.canonical(partition)
                    + " -> "
                    + (offset == null ? "null" : SyncPartitions.canonical(offset))
                    + (isBehind(behind, partition)
                        ? "  (from the lake's log; the store is behind)"
                        : "")));

    List<StateEntry> progress = store.scanAll(scope, StateKind.PROGRESS.prefix());
    out.println("sink progress: " + progress.size());
    for (StateEntry row : progress) {
      out.println(
          "  " + row.key().id() + " " + new String(row.value(), StandardCharsets.UTF_8).strip());
    }

    List<StateEntry> leases = store.scanAll(scope, StateKind.LEASE.prefix());
    out.println("leases: " + leases.size());
    Leases reader =
        new Leases(store, "skippr state", Duration.ofSeconds(1), MonotonicTicker.system());
    for (StateEntry row : leases) {
      out.println("  " + row.key().id() + " held by " + reader.holder(row.key()).orElse("nobody"));
    }

    List<StateKey> secrets = store.keys(scope, StateKind.SECRET.prefix());
    out.println("secrets: " + secrets.size() + (secrets.isEmpty() ? "" : " (values not shown)"));
    for (StateKey key : secrets) {
      out.println("  " + key.id());
    }
  }

  private static boolean isBehind(
      Map<Integer, LogEntry.SourcePosition> behind, Map<String, Object> partition) {
    String canonical = SyncPartitions.canonical(partition);
    return behind.values().stream()
        .anyMatch(p -> SyncPartitions.canonical(p.partition()).equals(canonical));
  }
}
