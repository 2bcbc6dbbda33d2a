package io.skippr.connect.source.http.config;

import io.skippr.connect.state.api.PipelineScopeConfig;
import io.skippr.connect.state.api.StateStoreConfig;
import java.util.Locale;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/** Where the catalog (each name's topic, each field's type) is kept. */
public final class CatalogConfig {

  public static final String STORE = "catalog.store";

  /** The catalog's storage. */
  public enum Store {
    /** The state store ({@code store.*}): shared by every task that opens it, kept on restart. */
    STATE,
    /** The task's memory: learned again from the rows after a restart, not shared. */
    MEMORY
  }

  /** The catalog settings. */
  public record Values(Store store) {}

  private CatalogConfig() {}

  public static ConfigDef define(ConfigDef def) {
    def.define(
        STORE,
        Type.STRING,
        "state",
        ConfigDef.CaseInsensitiveValidString.in("state", "memory"),
        Importance.MEDIUM,
        "Where the connector keeps which measurement or stream owns which topic, and the type of"
            + " every field it accepted: 'state' (the state store configured by store.*: survives"
            + " restarts and is shared by all tasks that open the same store; use"
            + " store.type=dynamodb when tasks run on several workers) or 'memory' (each task"
            + " learns them again from the rows after a restart; a row refused before may then be"
            + " accepted).");
    StateStoreConfig.define(def);
    PipelineScopeConfig.define(def);
    return def;
  }

  public static Values from(AbstractConfig c) {
    return new Values(Store.valueOf(c.getString(STORE).toUpperCase(Locale.ROOT)));
  }
}
