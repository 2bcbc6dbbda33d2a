package io.skippr.connect.source.poll.config;

import io.skippr.connect.state.api.PipelineScopeConfig;
import io.skippr.connect.state.api.StateStoreConfig;
import java.util.Locale;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;

/** Whether source offsets are mirrored into the state store, and the store's own keys. */
public final class PollStateConfig {

  public static final String MIRROR = "state.mirror";

  /** The mirror modes. */
  public enum Mode {
    AUTO,
    ON,
    OFF
  }

  private PollStateConfig() {}

  public static ConfigDef define(ConfigDef def) {
    def.define(
        MIRROR,
        ConfigDef.Type.STRING,
        "auto",
        Validators.oneOf("auto", "on", "off"),
        ConfigDef.Importance.LOW,
        "Mirror source offsets into the state store (offset#… rows in Connect's encoding) once"
            + " Kafka committed them, so the connector resumes from the store when Kafka's"
            + " offsets are gone. auto: mirror when the store opens, else warn once and go on"
            + " without; on: a store that cannot be opened fails the task; off: no mirror. The"
            + " refresh_token grant needs the store for its secrets whatever this says.");
    StateStoreConfig.define(def);
    PipelineScopeConfig.define(def);
    return def;
  }

  public static Mode mode(AbstractConfig c) {
    return Mode.valueOf(c.getString(MIRROR).toUpperCase(Locale.ROOT));
  }
}
