package io.skippr.connect.cli.discover;

import io.skippr.connect.schema.PipelineId;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One pipeline of {@code skippr.yml}.
 *
 * @param id tenant, workspace and pipeline name
 * @param sourceClass the SourceConnector class
 * @param sourceConfig the connector configuration, as Connect would receive it
 * @param namespaceFields the value fields naming each record's namespace (empty: per topic)
 * @param namespaceSeparator joins topic and namespace, as NamespaceRouter's namespace.separator
 */
public record PipelineSpec(
    PipelineId id,
    String sourceClass,
    Map<String, String> sourceConfig,
    List<String> namespaceFields,
    String namespaceSeparator) {

  public PipelineSpec {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(sourceClass, "sourceClass");
    sourceConfig = Map.copyOf(sourceConfig);
    namespaceFields = List.copyOf(namespaceFields);
    Objects.requireNonNull(namespaceSeparator, "namespaceSeparator");
  }

  /** The pipeline's name in skippr.yml. */
  public String name() {
    return id.pipeline();
  }
}
