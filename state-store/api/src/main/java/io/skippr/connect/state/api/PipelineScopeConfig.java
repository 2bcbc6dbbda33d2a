package io.skippr.connect.state.api;

import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The pipeline identity {@code {tenant}/{workspace}/{pipeline}} that scopes state rows; defaults
 * {@code default/default/<connector name>}.
 */
public final class PipelineScopeConfig {
  public static final String GROUP = "Pipeline";

  public static final String PIPELINE_TENANT = "pipeline.tenant";
  public static final String PIPELINE_TENANT_DOC = "Tenant the pipeline belongs to.";
  public static final String PIPELINE_WORKSPACE = "pipeline.workspace";
  public static final String PIPELINE_WORKSPACE_DOC = "Workspace the pipeline belongs to.";
  public static final String PIPELINE_NAME = "pipeline.name";
  public static final String PIPELINE_NAME_DOC = "Pipeline name. Unset: the connector name.";

  /** Connect's connector name key, the default pipeline name. */
  public static final String CONNECTOR_NAME = "name";

  private PipelineScopeConfig() {}

  public static ConfigDef define(ConfigDef def) {
    ConfigDef.Validator part =
        ConfigDef.LambdaValidator.with(
            PipelineScopeConfig::validatePart,
            () -> "non-empty, without '#' or control characters");
    return def.define(
            PIPELINE_TENANT,
            Type.STRING,
            StateScope.DEFAULT_TENANT,
            part,
            Importance.LOW,
            PIPELINE_TENANT_DOC,
            GROUP,
            1,
            Width.SHORT,
            "Tenant")
        .define(
            PIPELINE_WORKSPACE,
            Type.STRING,
            StateScope.DEFAULT_WORKSPACE,
            part,
            Importance.LOW,
            PIPELINE_WORKSPACE_DOC,
            GROUP,
            2,
            Width.SHORT,
            "Workspace")
        .define(
            PIPELINE_NAME,
            Type.STRING,
            null,
            part,
            Importance.LOW,
            PIPELINE_NAME_DOC,
            GROUP,
            3,
            Width.MEDIUM,
            "Pipeline");
  }

  /** The scope of a parsed connector config. */
  public static StateScope from(AbstractConfig config) {
    return scope(
        config.getString(PIPELINE_TENANT),
        config.getString(PIPELINE_WORKSPACE),
        Optional.ofNullable(config.getString(PIPELINE_NAME))
            .orElse(config.originalsStrings().get(CONNECTOR_NAME)));
  }

  /** The scope of raw properties (e.g. an embedded engine's), with the same defaults. */
  public static StateScope from(Map<String, String> props) {
    return scope(
        props.getOrDefault(PIPELINE_TENANT, StateScope.DEFAULT_TENANT),
        props.getOrDefault(PIPELINE_WORKSPACE, StateScope.DEFAULT_WORKSPACE),
        Optional.ofNullable(props.get(PIPELINE_NAME)).orElse(props.get(CONNECTOR_NAME)));
  }

  private static StateScope scope(String tenant, String workspace, String pipeline) {
    if (pipeline == null || pipeline.isBlank()) {
      throw new ConfigException(
          PIPELINE_NAME + " is not set and there is no connector name to default to");
    }
    try {
      return new StateScope(tenant, workspace, pipeline);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  private static void validatePart(String key, Object value) {
    if (value == null) {
      return;
    }
    String text = value.toString();
    if (text.isEmpty() || text.chars().anyMatch(c -> c == '#' || Character.isISOControl(c))) {
      throw new ConfigException(key, value, "must be non-empty, without '#' or control characters");
    }
  }
}
