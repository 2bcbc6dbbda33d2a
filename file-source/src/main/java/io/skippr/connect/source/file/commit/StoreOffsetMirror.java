package io.skippr.connect.source.file.commit;

import io.skippr.connect.source.file.config.OffsetMirrorConfig;
import io.skippr.connect.state.api.PipelineScopeConfig;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.connect.SourceOffsetMirror;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Source offsets mirrored into the state store in Connect's encoding ({@code offset#…} rows). */
public final class StoreOffsetMirror implements OffsetMirror {

  private static final Logger LOG = LoggerFactory.getLogger(StoreOffsetMirror.class);

  private final StateStore store;
  private final SourceOffsetMirror mirror;

  private StoreOffsetMirror(StateStore store, SourceOffsetMirror mirror) {
    this.store = store;
    this.mirror = mirror;
  }

  /**
   * Opens the mirror the connector config asks for; {@link OffsetMirror#NONE} when it is off, or
   * when it is {@code auto} and the store cannot be opened.
   */
  public static OffsetMirror open(Map<String, String> props, OffsetMirrorConfig.Mode mode) {
    if (mode == OffsetMirrorConfig.Mode.OFF) {
      return NONE;
    }
    try {
      return openStore(props);
    } catch (RuntimeException e) {
      if (mode == OffsetMirrorConfig.Mode.ON) {
        throw e;
      }
      LOG.warn(
          "Source offsets are not mirrored: the state store did not open ({}); set {}=off to"
              + " silence this or {}=on to require it",
          e.getMessage(),
          OffsetMirrorConfig.MIRROR,
          OffsetMirrorConfig.MIRROR);
      return NONE;
    }
  }

  /** Opens the store whatever the mode says (REST offset changes must reach it or fail). */
  public static OffsetMirror openStore(Map<String, String> props) {
    String connector = props.get(PipelineScopeConfig.CONNECTOR_NAME);
    if (connector == null) {
      throw new ConfigException("the connector config has no name to key its offsets with");
    }
    StateStore store = StateStores.open(props);
    try {
      return new StoreOffsetMirror(
          store, new SourceOffsetMirror(store, PipelineScopeConfig.from(props), connector));
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  @Override
  public void mirror(Map<String, ?> partition, Map<String, ?> offset) {
    mirror.mirror(partition, offset);
  }

  @Override
  public Optional<Map<String, Object>> read(Map<String, ?> partition) {
    return mirror.read(partition);
  }

  @Override
  public void alter(Map<? extends Map<String, ?>, ? extends Map<String, ?>> offsets) {
    mirror.alter(offsets);
  }

  @Override
  public void close() {
    store.close();
  }
}
