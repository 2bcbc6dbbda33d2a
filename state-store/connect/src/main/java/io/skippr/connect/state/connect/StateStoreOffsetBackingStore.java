package io.skippr.connect.state.connect;

import io.skippr.connect.common.MdcThreadFactory;
import io.skippr.connect.state.api.PipelineScopeConfig;
import io.skippr.connect.state.api.StateEntry;
import io.skippr.connect.state.api.StateKind;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.api.StoreEnvironment;
import io.skippr.connect.state.connect.ConnectOffsetCodec.OffsetKey;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.storage.OffsetBackingStore;
import org.apache.kafka.connect.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connect's {@link OffsetBackingStore} over the state store, so an embedded engine (Debezium's, or
 * {@code skippr sync}) keeps source offsets in RocksDB or DynamoDB instead of Kafka. Rows are the
 * same as {@link SourceOffsetMirror}'s: key and value JSON exactly as Connect encodes them.
 *
 * <p>Configured from the worker/engine properties: {@code store.*} (see {@code StateStoreConfig})
 * and {@code pipeline.*} (see {@link PipelineScopeConfig}; the pipeline defaults to {@code name}).
 * Use {@code offset.storage=io.skippr.connect.state.connect.StateStoreOffsetBackingStore}.
 */
public class StateStoreOffsetBackingStore implements OffsetBackingStore {
  private static final Logger LOG = LoggerFactory.getLogger(StateStoreOffsetBackingStore.class);

  private final StoreEnvironment environment;
  private final ConnectOffsetCodec codec = new ConnectOffsetCodec();
  private Map<String, String> props;
  private StateScope scope;
  private StateStore store;
  private ExecutorService executor;

  public StateStoreOffsetBackingStore() {
    this(StoreEnvironment.system());
  }

  /** For tests and embedding: settings outside the properties come from {@code environment}. */
  public StateStoreOffsetBackingStore(StoreEnvironment environment) {
    this.environment = environment;
  }

  @Override
  public void configure(WorkerConfig config) {
    this.props = config.originalsStrings();
    this.scope = PipelineScopeConfig.from(props);
  }

  @Override
  public synchronized void start() {
    if (props == null) {
      throw new IllegalStateException("configure() must be called before start()");
    }
    store = StateStores.open(props, environment);
    executor =
        Executors.newSingleThreadExecutor(
            new MdcThreadFactory("skippr-offset-store-" + scope.pipeline()));
    LOG.info("Source offsets of pipeline {} are kept in {}", scope, store.describe());
  }

  @Override
  public synchronized void stop() {
    if (executor != null) {
      executor.shutdown();
      try {
        if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
          LOG.warn("Offset writes to {} did not finish within 30 s", store.describe());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      executor = null;
    }
    if (store != null) {
      store.close();
      store = null;
    }
  }

  @Override
  public Future<Map<ByteBuffer, ByteBuffer>> get(Collection<ByteBuffer> keys) {
    return submit(
        () -> {
          Map<ByteBuffer, ByteBuffer> result = new HashMap<>();
          for (ByteBuffer key : keys) {
            byte[] connectKey = bytes(key);
            ByteBuffer value =
                store
                    .get(OffsetRows.key(scope, connectKey))
                    .map(row -> ByteBuffer.wrap(OffsetRows.connectValue(row)))
                    .orElse(null);
            result.put(key, value);
          }
          return result;
        });
  }

  @Override
  public Future<Void> set(Map<ByteBuffer, ByteBuffer> values, Callback<Void> callback) {
    return submit(
        () -> {
          try {
            for (Map.Entry<ByteBuffer, ByteBuffer> entry : values.entrySet()) {
              write(bytes(entry.getKey()), entry.getValue());
            }
          } catch (RuntimeException e) {
            if (callback != null) {
              callback.onCompletion(e, null);
            }
            throw e;
          }
          if (callback != null) {
            callback.onCompletion(null, null);
          }
          return null;
        });
  }

  @Override
  public Set<Map<String, Object>> connectorPartitions(String connectorName) {
    Set<Map<String, Object>> partitions = new HashSet<>();
    for (StateEntry row : store.scanAll(scope, StateKind.OFFSET.prefix())) {
      OffsetKey key = codec.decodeKey(OffsetRows.connectKey(row));
      if (key.connector().equals(connectorName)) {
        partitions.add(key.partition());
      }
    }
    return partitions;
  }

  private void write(byte[] connectKey, ByteBuffer value) {
    if (value == null) {
      store.delete(OffsetRows.key(scope, connectKey));
    } else {
      store.put(OffsetRows.key(scope, connectKey), OffsetRows.value(connectKey, bytes(value)));
    }
  }

  private <T> Future<T> submit(Callable<T> task) {
    if (executor == null) {
      throw new IllegalStateException("the offset store is not started");
    }
    return executor.submit(MdcThreadFactory.withCallersMdc(task));
  }

  private static byte[] bytes(ByteBuffer buffer) {
    ByteBuffer copy = buffer.duplicate();
    byte[] bytes = new byte[copy.remaining()];
    copy.get(bytes);
    return bytes;
  }
}
