package io.skippr.connect.lake.state;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.lake.log.ProgressMirror;
import io.skippr.connect.lake.log.SinkProgress;
import io.skippr.connect.state.api.PipelineScopeConfig;
import io.skippr.connect.state.api.StateEntry;
import io.skippr.connect.state.api.StateKey;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStoreException;
import io.skippr.connect.state.api.StateStores;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sink progress mirrored into the state store as {@code progress#{topic}/{partition}}, a JSON row
 * ({@code end_offset}, {@code compaction_id}, {@code epoch}, {@code log_seq}, {@code generation},
 * {@code lake_id}, {@code lake_location}). The lake's TP log is the truth; this row lets a new
 * process find its place when the log is gone, and only in the lake it names.
 */
public final class StoreProgressMirror implements ProgressMirror, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StoreProgressMirror.class);
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private static final int MAX_RACES = 16;

  private final StateStore store;
  private final StateScope scope;

  /** The stored form of a row. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Row(
      @JsonProperty("end_offset") long endOffset,
      @JsonProperty("compaction_id") String compactionId,
      @JsonProperty("epoch") long epoch,
      @JsonProperty("log_seq") long logSeq,
      @JsonProperty("generation") long generation,
      @JsonProperty("lake_id") String lakeId,
      @JsonProperty("lake_location") String lakeLocation) {}

  StoreProgressMirror(StateStore store, StateScope scope) {
    this.store = store;
    this.scope = scope;
  }

  /**
   * Opens the mirror the connector config asks for; {@link ProgressMirror#NONE} when it is off, or
   * when it is {@code auto} and the store cannot be opened.
   */
  public static ProgressMirror open(Map<String, String> props, MirrorConfig.Mode mode) {
    if (mode == MirrorConfig.Mode.OFF) {
      return ProgressMirror.NONE;
    }
    try {
      return new StoreProgressMirror(StateStores.open(props), PipelineScopeConfig.from(props));
    } catch (RuntimeException e) {
      if (mode == MirrorConfig.Mode.ON) {
        throw e;
      }
      LOG.warn(
          "Progress is not mirrored: the state store did not open ({}); set {}=off to silence"
              + " this or {}=on to require it",
          e.getMessage(),
          MirrorConfig.MIRROR,
          MirrorConfig.MIRROR);
      return ProgressMirror.NONE;
    }
  }

  /** The row key of a topic-partition, e.g. {@code progress#orders/3}. */
  StateKey key(String topic, int partition) {
    return StateKey.of(scope, StateKind.PROGRESS, topic + "/" + partition);
  }

  @Override
  public Optional<SinkProgress> lookup(String topic, int partition) {
    return store.get(key(topic, partition)).map(entry -> decode(topic, partition, entry));
  }

  /**
   * Records progress after a commit. A row of the same lake never moves backwards (a newer epoch
   * may have written it already); a row of another lake is replaced.
   */
  @Override
  public void record(SinkProgress progress) {
    StateKey key = key(progress.topic(), progress.partition());
    byte[] value = encode(progress);
    for (int race = 0; race < MAX_RACES; race++) {
      Optional<StateEntry> current = store.get(key);
      if (current.isPresent()) {
        SinkProgress stored = decode(progress.topic(), progress.partition(), current.get());
        if (progress.lakeId().equals(stored.lakeId()) && !progress.isAfter(stored)) {
          return;
        }
      }
      long version = current.map(StateEntry::version).orElse(0L);
      if (store.compareAndSet(key, version, value).isPresent()) {
        return;
      }
    }
    throw new StateStoreException(
        "progress row " + key + " kept changing under " + MAX_RACES + " attempts to update it");
  }

  @Override
  public void forget(String topic, int partition) {
    store.delete(key(topic, partition));
  }

  @Override
  public void close() {
    store.close();
  }

  private static byte[] encode(SinkProgress p) {
    try {
      return JSON.writeValueAsBytes(
          new Row(
              p.endOffset(),
              p.compactionId(),
              p.epoch(),
              p.logSeq(),
              p.generation(),
              p.lakeId(),
              p.lakeLocation()));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static SinkProgress decode(String topic, int partition, StateEntry entry) {
    try {
      Row row = JSON.readValue(entry.value(), Row.class);
      return new SinkProgress(
          topic,
          partition,
          row.endOffset(),
          row.compactionId(),
          row.epoch(),
          row.logSeq(),
          row.generation(),
          row.lakeId(),
          row.lakeLocation());
    } catch (IOException e) {
      throw new StateStoreException(
          "progress row " + entry.key() + " is not valid progress JSON", e);
    }
  }
}
