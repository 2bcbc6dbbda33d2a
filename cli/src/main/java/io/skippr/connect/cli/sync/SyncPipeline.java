package io.skippr.connect.cli.sync;

import io.skippr.connect.cli.discover.PipelineSpec;
import io.skippr.connect.lake.write.LakeSinkConfig;
import io.skippr.connect.state.api.PipelineScopeConfig;
import io.skippr.connect.state.api.StateScope;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;

/**
 * A pipeline of skippr.yml as a run without Kafka needs it: the source's configuration (with the
 * transforms), the lake's, and the one state store both use, all in the pipeline's scope.
 *
 * <p>The store is configured by the {@code store.*} keys of the lake and of the source (they must
 * agree where both set one); the scope is the pipeline's tenant, workspace and name, whatever
 * {@code pipeline.*} keys the configurations carry.
 */
final class SyncPipeline {
  /** The HTTP push ingest source: clients are acknowledged once Kafka has their records. */
  static final String INGEST_SOURCE = "io.skippr.connect.source.http.HttpIngestSourceConnector";

  private static final String STORE_PREFIX = "store.";

  private final PipelineSpec spec;
  private final StateScope scope;
  private final Map<String, String> store;
  private final SyncConfig settings;

  private SyncPipeline(PipelineSpec spec, Map<String, String> store, SyncConfig settings) {
    this.spec = spec;
    this.scope = new StateScope(spec.id().tenant(), spec.id().workspace(), spec.name());
    this.store = store;
    this.settings = settings;
  }

  /**
   * Checks what a run needs: a source other than the push ingest, a lake, valid {@code sync.*} keys
   * and one store configuration.
   *
   * @throws SyncException naming the problem
   */
  static SyncPipeline of(PipelineSpec spec) {
    String at = "pipelines." + spec.name();
    if (INGEST_SOURCE.equals(spec.sourceClass())) {
      throw new SyncException(
          at
              + ": the HTTP push ingest source needs Kafka as its write-ahead log (a client's"
              + " write is acknowledged once Kafka has it); run it under Connect");
    }
    if (spec.lakeConfig().isEmpty()) {
      throw new SyncException(
          at + ".lake.config is missing: a run writes to the lake its LakeSinkConnector keys name");
    }
    SyncConfig settings;
    try {
      settings = new SyncConfig(spec.syncConfig());
    } catch (ConfigException e) {
      throw new SyncException(at + ".sync: " + e.getMessage(), e);
    }
    Map<String, String> store = new TreeMap<>();
    for (Map<String, String> config : List.of(spec.lakeConfig(), spec.sourceConfig())) {
      for (Map.Entry<String, String> entry : config.entrySet()) {
        if (!entry.getKey().startsWith(STORE_PREFIX)) {
          continue;
        }
        String known = store.putIfAbsent(entry.getKey(), entry.getValue());
        if (known != null && !known.equals(entry.getValue())) {
          throw new SyncException(
              at
                  + ": lake.config and source.config set "
                  + entry.getKey()
                  + " differently ('"
                  + known
                  + "' and '"
                  + entry.getValue()
                  + "'); a run keeps the state of both in one store");
        }
      }
    }
    return new SyncPipeline(spec, store, settings);
  }

  String name() {
    return spec.name();
  }

  StateScope scope() {
    return scope;
  }

  SyncConfig settings() {
    return settings;
  }

  String sourceClass() {
    return spec.sourceClass();
  }

  /** The TP log topic of the pipeline's units: {@code sync~{pipeline}}. */
  String logTopic() {
    return SyncRecords.logTopic(spec.name());
  }

  /** The name the source's offsets are keyed by: its {@code name}, else the pipeline's. */
  String connectorName() {
    return spec.sourceConfig().getOrDefault(PipelineScopeConfig.CONNECTOR_NAME, spec.name());
  }

  /** The state store's keys, in the pipeline's scope. */
  Map<String, String> storeProps() {
    Map<String, String> props = new LinkedHashMap<>(store);
    props.putAll(scopeProps());
    props.put(PipelineScopeConfig.CONNECTOR_NAME, connectorName());
    return props;
  }

  /** The source connector's configuration with the transforms, the store and the scope. */
  Map<String, String> sourceProps() {
    Map<String, String> props = new LinkedHashMap<>(spec.sourceConfig());
    props.putAll(spec.transforms());
    props.putAll(store);
    props.putAll(scopeProps());
    props.put(PipelineScopeConfig.CONNECTOR_NAME, connectorName());
    props.put("connector.class", spec.sourceClass());
    return props;
  }

  /**
   * The lake sink's configuration with the store and the scope, checked as Connect checks it.
   *
   * @throws SyncException naming the first bad key
   */
  Map<String, String> lakeProps() {
    Map<String, String> props = new LinkedHashMap<>(spec.lakeConfig());
    props.putAll(store);
    props.putAll(scopeProps());
    props.putIfAbsent(PipelineScopeConfig.CONNECTOR_NAME, spec.name() + "-lake");
    props.putIfAbsent("topics", logTopic());
    Config checked = LakeSinkConfig.validate(props);
    for (ConfigValue value : checked.configValues()) {
      if (!value.errorMessages().isEmpty()) {
        throw new SyncException(
            "pipelines."
                + spec.name()
                + ".lake.config: "
                + value.name()
                + ": "
                + value.errorMessages().get(0));
      }
    }
    return props;
  }

  private Map<String, String> scopeProps() {
    return Map.of(
        PipelineScopeConfig.PIPELINE_TENANT, scope.tenant(),
        PipelineScopeConfig.PIPELINE_WORKSPACE, scope.workspace(),
        PipelineScopeConfig.PIPELINE_NAME, scope.pipeline());
  }
}
