package io.skippr.connect.cli.sync;

import io.skippr.connect.state.connect.StateStoreOffsetBackingStore;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.kafka.connect.util.Callback;

/**
 * The offsets a run of {@code skippr sync} gives its source: read from the state store, never
 * written by the engine. The run writes a source offset only once the unit that holds its record is
 * committed to the lake ({@link SyncOffsets}), so the store never runs ahead of the lake.
 */
public class ReadOnlyOffsetStore extends StateStoreOffsetBackingStore {
  @Override
  public Future<Void> set(Map<ByteBuffer, ByteBuffer> values, Callback<Void> callback) {
    if (callback != null) {
      callback.onCompletion(null, null);
    }
    return CompletableFuture.completedFuture(null);
  }
}
