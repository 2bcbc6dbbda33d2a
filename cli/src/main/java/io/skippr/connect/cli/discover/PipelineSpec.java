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
 * @param transforms Connect's transform keys ({@code transforms}, {@code transforms.<name>.*}) for
 *     a run without Kafka; empty for none
 * @param lakeConfig the lake sink's configuration ({@code LakeSinkConnector} keys) for a run
 *     without Kafka; empty when the pipeline has no {@code lake}
 * @param syncConfig how {@code skippr sync} runs it ({@code sync.*} keys); empty for the defaults
 */
public record PipelineSpec(
    PipelineId id,
    String sourceClass,
    Map<String, String> sourceConfig,
    List<String> namespaceFields,
    String namespaceSeparator,
    Map<String, String> transforms,
    Map<String, String> lakeConfig,
    Map<String, String> syncConfig) {

  public PipelineSpec {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(sourceClass, "sourceClass");
    sourceConfig = Map.copyOf(sourceConfig);
    namespaceFields = List.copyOf(namespaceFields);
    Objects.requireNonNull(namespaceSeparator, "namespaceSeparator");
    transforms = Map.copyOf(transforms);
    lakeConfig = Map.copyOf(lakeConfig);
    syncConfig = Map.copyOf(syncConfig);
  }

  /** A pipeline for discovery: a source, without transforms or lake. */
  public PipelineSpec(
      PipelineId id,
      String sourceClass,
      Map<String, String> sourceConfig,
      List<String> namespaceFields,
      String namespaceSeparator) {
    this(
        id,
        sourceClass,
        sourceConfig,
        namespaceFields,
        namespaceSeparator,
        Map.of(),
        Map.of(),
        Map.of());
  }

  /** The pipeline's name in skippr.yml. */
  public String name() {
    return id.pipeline();
  }
}
