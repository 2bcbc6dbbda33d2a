package io.skippr.connect.cli.discover;

import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.connect.common.FlatSettings;
import io.skippr.connect.common.SkipprFile;
import io.skippr.connect.schema.PipelineId;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads pipelines from {@code skippr.yml}:
 *
 * <pre>{@code
 * pipelines:
 *   orders:
 *     tenant: acme                 # optional, default "default"
 *     workspace: prod              # optional, default "default"
 *     source:
 *       class: io.skippr.connect.source.http.HttpIngestSourceConnector
 *       config:                    # the connector's configuration
 *         server.port: 8086
 *         topic: orders
 *     namespace_fields: [type]     # optional: one contract per namespace
 *     namespace_separator: "."     # optional, as NamespaceRouter's namespace.separator
 *     transforms:                  # optional, for skippr sync: Connect's own SMT keys
 *       transforms: infer
 *       transforms.infer.type: io.skippr.connect.transforms.InferSchema$Value
 *     lake:                        # for skippr sync: the lake sink's configuration
 *       config: {topics.dir: /srv/lake, flush.size: 10000}
 *     sync:                        # optional, for skippr sync: sync.* keys without the prefix
 *       idle.ms: 5000
 * }</pre>
 *
 * The mappings {@code source.config}, {@code transforms}, {@code lake.config} and {@code sync} are
 * read as {@link FlatSettings}: nested maps flattened with dots, lists joined with commas, scalars
 * taken as text. Other top-level keys are left for other commands; unknown keys inside a pipeline
 * are errors, so that a misspelt key is not silently ignored.
 */
public final class SkipprYaml {
  private static final Set<String> PIPELINE_KEYS =
      Set.of(
          "tenant",
          "workspace",
          "source",
          "namespace_fields",
          "namespace_separator",
          "transforms",
          "lake",
          "sync");

  private final Path file;
  private final Map<String, JsonNode> pipelines;

  private SkipprYaml(Path file, Map<String, JsonNode> pipelines) {
    this.file = file;
    this.pipelines = pipelines;
  }

  /** The file to read: {@code --config}, else {@code $SKIPPR_CONFIG}, else ./skippr.yml. */
  public static Path locate(Path option, Map<String, String> env, Path workingDir) {
    return SkipprFile.locate(option, env, workingDir);
  }

  /**
   * Reads and checks the file.
   *
   * @throws DiscoveryException naming the file and the key when it is missing or malformed
   */
  public static SkipprYaml read(Path file) {
    try {
      return of(
          SkipprFile.readIfPresent(file)
              .orElseThrow(
                  () ->
                      new DiscoveryException(
                          file
                              + " not found (pass --config FILE or set "
                              + SkipprFile.CONFIG_ENV
                              + ")")));
    } catch (SkipprFile.SkipprFileException e) {
      throw new DiscoveryException(e.getMessage(), e);
    }
  }

  static SkipprYaml parse(Path file, String text) {
    try {
      return of(SkipprFile.parse(file, text));
    } catch (SkipprFile.SkipprFileException e) {
      throw new DiscoveryException(e.getMessage(), e);
    }
  }

  private static SkipprYaml of(SkipprFile skipprFile) {
    Path file = skipprFile.path();
    JsonNode list = skipprFile.root().get("pipelines");
    if (list == null || !list.isObject() || list.isEmpty()) {
      throw new DiscoveryException(file + ": no 'pipelines' mapping with at least one pipeline");
    }
    // Pipelines are checked when asked for, so one broken pipeline does not block the others.
    Map<String, JsonNode> pipelines = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = list.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      pipelines.put(entry.getKey(), entry.getValue());
    }
    return new SkipprYaml(file, pipelines);
  }

  /** The file this was read from. */
  public Path file() {
    return file;
  }

  /** Pipeline names in file order. */
  public List<String> names() {
    return List.copyOf(pipelines.keySet());
  }

  /**
   * The named pipeline.
   *
   * @throws DiscoveryException listing the known pipelines when there is no such pipeline, or
   *     naming the key when the pipeline is malformed
   */
  public PipelineSpec pipeline(String name) {
    JsonNode node = pipelines.get(name);
    if (node == null) {
      throw new DiscoveryException(
          "unknown pipeline '"
              + name
              + "' in "
              + file
              + " (it defines: "
              + String.join(", ", pipelines.keySet())
              + ")");
    }
    return pipeline(file, name, node);
  }

  private static PipelineSpec pipeline(Path file, String name, JsonNode node) {
    String at = file + ": pipelines." + name;
    if (!node.isObject()) {
      throw new DiscoveryException(at + " must be a mapping");
    }
    Set<String> unknown = new TreeSet<>();
    node.fieldNames().forEachRemaining(unknown::add);
    unknown.removeAll(PIPELINE_KEYS);
    if (!unknown.isEmpty()) {
      throw new DiscoveryException(
          at
              + ": unknown key "
              + String.join(", ", unknown)
              + " (known: "
              + String.join(", ", new TreeSet<>(PIPELINE_KEYS))
              + ")");
    }
    JsonNode source = node.get("source");
    if (source == null || !source.isObject()) {
      throw new DiscoveryException(at + ".source is missing (needs class and config)");
    }
    String sourceClass = source.path("class").asText("").trim();
    if (sourceClass.isEmpty()) {
      throw new DiscoveryException(at + ".source.class is missing");
    }
    Map<String, String> config = new LinkedHashMap<>();
    JsonNode configNode = source.get("config");
    if (configNode != null && !configNode.isNull()) {
      if (!configNode.isObject()) {
        throw new DiscoveryException(at + ".source.config must be a mapping");
      }
      config.putAll(flat(at + ".source.config", configNode));
    }
    try {
      PipelineId id =
          new PipelineId(
              text(node, "tenant", PipelineId.DEFAULT),
              text(node, "workspace", PipelineId.DEFAULT),
              name);
      return new PipelineSpec(
          id,
          sourceClass,
          config,
          fields(at, node.get("namespace_fields")),
          text(node, "namespace_separator", "."),
          flatMapping(at + ".transforms", node.get("transforms")),
          flatMapping(at + ".lake.config", node.path("lake").get("config")),
          prefixed("sync.", flatMapping(at + ".sync", node.get("sync"))));
    } catch (IllegalArgumentException e) {
      throw new DiscoveryException(at + ": " + e.getMessage(), e);
    }
  }

  private static Map<String, String> prefixed(String prefix, Map<String, String> config) {
    Map<String, String> out = new LinkedHashMap<>();
    config.forEach((key, value) -> out.put(prefix + key, value));
    return out;
  }

  /** A mapping flattened with dots, as a connector configuration; empty when absent. */
  private static Map<String, String> flatMapping(String at, JsonNode node) {
    Map<String, String> config = new LinkedHashMap<>();
    if (node == null || node.isNull() || node.isMissingNode()) {
      return config;
    }
    if (!node.isObject()) {
      throw new DiscoveryException(at + " must be a mapping");
    }
    config.putAll(flat(at, node));
    return config;
  }

  /** A connector's settings: a list with no flat form is an error here, not left out. */
  private static Map<String, String> flat(String at, JsonNode mapping) {
    try {
      return FlatSettings.strict(mapping);
    } catch (FlatSettings.Refused e) {
      throw new DiscoveryException(at + "." + e.getMessage(), e);
    }
  }

  private static String text(JsonNode node, String key, String fallback) {
    JsonNode value = node.get(key);
    return value == null || value.isNull() ? fallback : value.asText();
  }

  private static List<String> fields(String at, JsonNode node) {
    List<String> fields = new ArrayList<>();
    if (node == null || node.isNull()) {
      return fields;
    }
    if (node.isTextual()) {
      for (String part : node.asText().split(",")) {
        if (!part.isBlank()) {
          fields.add(part.trim());
        }
      }
      return fields;
    }
    if (!node.isArray()) {
      throw new DiscoveryException(at + ".namespace_fields must be a list of field names");
    }
    node.forEach(f -> fields.add(f.asText().trim()));
    return fields;
  }
}
