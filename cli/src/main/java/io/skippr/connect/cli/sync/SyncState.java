package io.skippr.connect.cli.sync;

import io.skippr.connect.lake.log.CommittedUnit;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.write.LakeSinkConfig;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStoreException;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.connect.SourceOffsetMirror;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The state of a pipeline run without Kafka, in its state store and its lake. The lake's TP logs
 * are the truth: {@link #reconcile} rewrites every source offset the store holds differently from
 * the last committed unit of its partition (a run died between the commit and the store write).
 */
final class SyncState implements AutoCloseable {
  static final LakeLayout LAYOUT = new LakeLayout();
  private static final Duration STORE_RETRY = Duration.ofMillis(500);

  private final SyncPipeline pipeline;
  private final LakeSinkConfig lakeConfig;
  private final StateStore store;
  private final LakeStorage lake;
  private final SyncPartitions partitions;
  private final SourceOffsetMirror offsets;

  /**
   * Where each partition resumes: the next sequence of its TP, and whether its row was rewritten.
   */
  record Resume(Map<Integer, Long> next, int rowsRebuilt) {}

  private SyncState(
      SyncPipeline pipeline, LakeSinkConfig lakeConfig, StateStore store, LakeStorage lake)
      throws IOException {
    this.pipeline = pipeline;
    this.lakeConfig = lakeConfig;
    this.store = store;
    this.lake = lake;
    this.partitions = new SyncPartitions(lake, pipeline.name()).load();
    this.offsets = new SourceOffsetMirror(store, pipeline.scope(), pipeline.connectorName());
  }

  /**
   * Opens the pipeline's store and lake. A store another process holds (RocksDB allows one per
   * directory) is waited for when {@code wait}, telling {@code waiting} once; else refused.
   *
   * @throws SyncException when the lake or the store cannot be opened
   */
  static SyncState open(SyncPipeline pipeline, boolean wait, Consumer<String> waiting)
      throws InterruptedException {
    LakeSinkConfig lakeConfig = new LakeSinkConfig(pipeline.lakeProps());
    StateStore store = openStore(pipeline, wait, waiting);
    LakeStorage lake = null;
    try {
      lake = lakeConfig.storage().open();
      return new SyncState(pipeline, lakeConfig, store, lake);
    } catch (IOException | RuntimeException e) {
      store.close();
      closeQuietly(lake);
      throw new SyncException(
          "cannot open the lake " + lakeConfig.storage().topicsDir() + ": " + e.getMessage(), e);
    }
  }

  private static StateStore openStore(SyncPipeline pipeline, boolean wait, Consumer<String> waiting)
      throws InterruptedException {
    boolean told = false;
    while (true) {
      try {
        return StateStores.open(pipeline.storeProps());
      } catch (StateStoreException e) {
        boolean held = String.valueOf(e.getMessage()).contains("in use by another process");
        if (!held || !wait) {
          throw new SyncException(e.getMessage(), e);
        }
        if (!told) {
          waiting.accept(e.getMessage());
          told = true;
        }
        Thread.sleep(STORE_RETRY.toMillis());
      }
    }
  }

  SyncPipeline pipeline() {
    return pipeline;
  }

  LakeSinkConfig lakeConfig() {
    return lakeConfig;
  }

  StateStore store() {
    return store;
  }

  LakeStorage lake() {
    return lake;
  }

  SyncPartitions partitions() {
    return partitions;
  }

  SourceOffsetMirror offsets() {
    return offsets;
  }

  /**
   * Where each numbered partition resumes, after making the store agree with the lake: a row that
   * differs from the source position of the partition's last committed unit is rewritten. A
   * partition without a committed unit keeps its row (an imported offset, or none: from the start).
   */
  Resume reconcile() throws IOException {
    Map<Integer, Long> next = new TreeMap<>();
    int rebuilt = 0;
    for (Map.Entry<Integer, Map<String, Object>> numbered : partitions.all().entrySet()) {
      TpLog log = TpLog.read(lake, LAYOUT, pipeline.logTopic(), numbered.getKey());
      next.put(numbered.getKey(), log.state().resumeOffset().orElse(0L));
      LogEntry.SourcePosition position =
          log.state().lastCommit().map(CommittedUnit::source).orElse(null);
      if (position != null && !agrees(position)) {
        offsets.mirror(position.partition(), position.offset());
        rebuilt++;
      }
    }
    return new Resume(next, rebuilt);
  }

  /**
   * The source's offsets as the next run resumes them, without writing: the store's rows, each
   * replaced by the source position of its partition's last committed unit where there is one.
   */
  Map<Map<String, Object>, Map<String, Object>> sourceOffsets() throws IOException {
    // Keyed by canonical JSON: the store's numbers decode as longs, the log's as ints.
    Map<String, LogEntry.SourcePosition> all = new TreeMap<>();
    offsets
        .readAll()
        .forEach(
            (partition, offset) ->
                all.put(
                    SyncPartitions.canonical(partition),
                    new LogEntry.SourcePosition(partition, offset)));
    for (LogEntry.SourcePosition position : lakePositions().values()) {
      all.put(SyncPartitions.canonical(position.partition()), position);
    }
    Map<Map<String, Object>, Map<String, Object>> result = new LinkedHashMap<>();
    all.values().forEach(position -> result.put(position.partition(), position.offset()));
    return result;
  }

  /** The partitions whose store row is behind the lake's log (a run died in between). */
  Map<Integer, LogEntry.SourcePosition> behindTheLake() throws IOException {
    Map<Integer, LogEntry.SourcePosition> behind = new TreeMap<>();
    lakePositions()
        .forEach(
            (n, position) -> {
              if (!agrees(position)) {
                behind.put(n, position);
              }
            });
    return behind;
  }

  private Map<Integer, LogEntry.SourcePosition> lakePositions() throws IOException {
    Map<Integer, LogEntry.SourcePosition> positions = new TreeMap<>();
    for (Integer n : partitions.all().keySet()) {
      TpLog.read(lake, LAYOUT, pipeline.logTopic(), n)
          .state()
          .lastCommit()
          .map(CommittedUnit::source)
          .ifPresent(position -> positions.put(n, position));
    }
    return positions;
  }

  private boolean agrees(LogEntry.SourcePosition position) {
    Map<String, Object> stored = offsets.read(position.partition()).orElse(null);
    return stored != null
        && SyncPartitions.canonical(stored).equals(SyncPartitions.canonical(position.offset()));
  }

  /**
   * Sets source offsets (a null offset resets the partition to the start). A partition the lake
   * already numbered gets a new number first, so its old log no longer says where it resumes.
   */
  void importOffsets(Map<Map<String, Object>, Map<String, Object>> imported) {
    for (Map.Entry<Map<String, Object>, Map<String, Object>> entry : imported.entrySet()) {
      if (partitions.find(entry.getKey()) != null) {
        partitions.renumber(entry.getKey());
      }
      offsets.mirror(entry.getKey(), entry.getValue());
    }
  }

  @Override
  public void close() {
    store.close();
    closeQuietly(lake);
  }

  private static void closeQuietly(LakeStorage lake) {
    if (lake != null) {
      try {
        lake.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
