package io.skippr.connect.iceberg;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.state.api.PipelineScopeConfig;
import io.skippr.connect.state.api.StateEntry;
import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStores;
import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which changes are registered, kept in the state store as {@code
 * registration#{catalog}/{table}/{change id}} rows ({@code lake_id}, {@code snapshot_id}, {@code
 * epoch}): they outlive the table's snapshots, which users expire. Written after the Iceberg
 * commit; the snapshot ancestry covers a crash in between. Without a store, the ancestry alone
 * decides.
 */
final class RegistrationRecords implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RegistrationRecords.class);
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** The stored form of a row. */
  record Row(
      @JsonProperty("lake_id") String lakeId,
      @JsonProperty("snapshot_id") long snapshotId,
      @JsonProperty("epoch") long epoch) {}

  private final StateStore store;
  private final StateScope scope;
  private final String catalog;
  private final String lakeId;

  RegistrationRecords(StateStore store, StateScope scope, String catalog, String lakeId) {
    this.store = store;
    this.scope = scope;
    this.catalog = catalog;
    this.lakeId = lakeId;
  }

  /** The records of the store the connector configures, or none when it cannot be opened. */
  static RegistrationRecords open(Map<String, String> props, String catalog, String lakeId) {
    if ("off".equalsIgnoreCase(props.getOrDefault("state.mirror", "auto"))) {
      return new RegistrationRecords(null, null, catalog, lakeId);
    }
    try {
      return new RegistrationRecords(
          StateStores.open(props), PipelineScopeConfig.from(props), catalog, lakeId);
    } catch (RuntimeException e) {
      LOG.warn(
          "Registrations are not recorded in the state store ({}); the tables' snapshot ancestry"
              + " alone keeps them idempotent, so do not expire snapshots younger than a task's"
              + " longest outage",
          e.getMessage());
      return new RegistrationRecords(null, null, catalog, lakeId);
    }
  }

  /** The ids among {@code ids} recorded as registered in {@code table} for this lake. */
  Set<String> registered(String table, Collection<String> ids) {
    Set<String> found = new LinkedHashSet<>();
    if (store == null) {
      return found;
    }
    for (String id : ids) {
      Optional<StateEntry> row = store.get(key(table, id));
      if (row.isPresent() && lakeId.equals(decode(row.get()).lakeId())) {
        found.add(id);
      }
    }
    return found;
  }

  /** Records changes registered by (or found in) a snapshot; a failure is only logged. */
  void record(String table, Collection<String> ids, long snapshotId, long epoch) {
    if (store == null) {
      return;
    }
    try {
      byte[] value = JSON.writeValueAsBytes(new Row(lakeId, snapshotId, epoch));
      for (String id : ids) {
        store.put(key(table, id), value);
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not record registrations {} of {}: {}", ids, table, e.toString());
    }
  }

  /** Drops the rows of changes whose files are no longer live (compacted or expired). */
  void forget(String table, Collection<String> ids) {
    if (store == null) {
      return;
    }
    try {
      ids.forEach(id -> store.delete(key(table, id)));
    } catch (RuntimeException e) {
      LOG.warn("Could not drop registrations {} of {}: {}", ids, table, e.toString());
    }
  }

  private StateKey key(String table, String id) {
    return StateKey.of(scope, StateKind.REGISTRATION, catalog + "/" + table + "/" + id);
  }

  private static Row decode(StateEntry entry) {
    try {
      return JSON.readValue(entry.value(), Row.class);
    } catch (IOException e) {
      return new Row("", 0, 0); // unreadable: not a record of this lake
    }
  }

  @Override
  public void close() {
    if (store != null) {
      store.close();
    }
  }
}
