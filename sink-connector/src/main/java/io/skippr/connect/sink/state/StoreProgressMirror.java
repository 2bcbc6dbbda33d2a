package io.skippr.connect.sink.state;

import io.skippr.connect.sink.log.ProgressMirror;
import io.skippr.connect.sink.log.SinkProgress;
import io.skippr.connect.state.api.PipelineScopeConfig;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.connect.SinkProgressMirror;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Sink progress mirrored into the state store as {@code progress#{topic}/{partition}}. */
public final class StoreProgressMirror implements ProgressMirror, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StoreProgressMirror.class);

  private final StateStore store;
  private final SinkProgressMirror mirror;

  StoreProgressMirror(StateStore store, SinkProgressMirror mirror) {
    this.store = store;
    this.mirror = mirror;
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
      StateStore store = StateStores.open(props);
      return new StoreProgressMirror(
          store, new SinkProgressMirror(store, PipelineScopeConfig.from(props)));
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

  @Override
  public Optional<SinkProgress> lookup(String topic, int partition) {
    return mirror
        .read(topic, partition)
        .map(
            p ->
                new SinkProgress(
                    topic, partition, p.endOffset(), p.compactionId(), p.epoch(), p.logSeq()));
  }

  @Override
  public void record(SinkProgress progress) {
    mirror.record(
        progress.topic(),
        progress.partition(),
        new io.skippr.connect.state.connect.SinkProgress(
            progress.endOffset(), progress.compactionId(), progress.epoch(), progress.logSeq()));
  }

  @Override
  public void close() {
    store.close();
  }
}
