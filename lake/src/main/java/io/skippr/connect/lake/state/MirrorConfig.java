package io.skippr.connect.lake.state;

import io.skippr.connect.state.api.PipelineScopeConfig;
import io.skippr.connect.state.api.StateStoreConfig;
import java.util.Locale;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;

/** Whether and where the sink mirrors its progress into the state store. */
public final class MirrorConfig {
  public static final String MIRROR = "state.mirror";
  private static final String MIRROR_DOC =
      "Mirror each committed unit's progress (progress#{topic}/{partition}) into the state store,"
          + " so a partition whose lake log is gone resumes where it was. auto: mirror when the"
          + " store opens, else warn once and go on without it (the lake log stays the truth);"
          + " on: a store that cannot be opened fails the task; off: no mirror.";

  /** The mirror mode. */
  public enum Mode {
    AUTO,
    ON,
    OFF
  }

  private MirrorConfig() {}

  public static ConfigDef define(ConfigDef def) {
    def.define(
        MIRROR,
        ConfigDef.Type.STRING,
        "auto",
        ConfigDef.CaseInsensitiveValidString.in("auto", "on", "off"),
        ConfigDef.Importance.LOW,
        MIRROR_DOC);
    StateStoreConfig.define(def);
    PipelineScopeConfig.define(def);
    return def;
  }

  public static Mode mode(AbstractConfig config) {
    return Mode.valueOf(config.getString(MIRROR).toUpperCase(Locale.ROOT));
  }
}
