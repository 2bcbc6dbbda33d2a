package io.skippr.connect.source.file.config;

import io.skippr.connect.state.api.PipelineScopeConfig;
import io.skippr.connect.state.api.StateStoreConfig;
import java.util.Locale;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;

/** Whether and where committed source offsets are mirrored into the state store. */
public final class OffsetMirrorConfig {

  public static final String MIRROR = "state.mirror";

  /** The mirror mode. */
  public enum Mode {
    AUTO,
    ON,
    OFF
  }

  private OffsetMirrorConfig() {}

  public static ConfigDef define(ConfigDef def) {
    def.define(
        MIRROR,
        ConfigDef.Type.STRING,
        "auto",
        ConfigDef.CaseInsensitiveValidString.in("auto", "on", "off"),
        ConfigDef.Importance.LOW,
        "Mirror the source offsets Kafka has committed (offset#… rows in Connect's encoding) into"
            + " the state store, so a pipeline whose offsets topic is gone resumes mid-file. auto:"
            + " mirror when the store opens, else warn once and go on (Kafka stays the truth); on:"
            + " a store that cannot be opened fails the task; off: no mirror.");
    StateStoreConfig.define(def);
    PipelineScopeConfig.define(def);
    return def;
  }

  public static Mode mode(AbstractConfig c) {
    return Mode.valueOf(c.getString(MIRROR).toUpperCase(Locale.ROOT));
  }
}
