package io.skippr.connect.cli.discover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.schema.PipelineId;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SkipprYamlTest {
  private static final Path FILE = Path.of("/etc/skippr.yml");

  private static SkipprYaml parse(String... lines) {
    return SkipprYaml.parse(FILE, String.join("\n", lines));
  }

  @Test
  void readsAPipelineWithEveryKey() {
    SkipprYaml yaml =
        parse(
            "pipelines:",
            "  orders:",
            "    tenant: acme",
            "    workspace: prod",
            "    source:",
            "      class: com.example.OrdersSource",
            "      config:",
            "        topic: orders",
            "        poll.interval.ms: 500",
            "        server: {port: 8086, tls: true}",
            "        hosts: [a, b]",
            "        unset: ~",
            "    namespace_fields: [type, meta.region]",
            "    namespace_separator: '__'",
            "defaults: {ignored: true}");

    PipelineSpec spec = yaml.pipeline("orders");
    assertThat(spec.id()).isEqualTo(new PipelineId("acme", "prod", "orders"));
    assertThat(spec.sourceClass()).isEqualTo("com.example.OrdersSource");
    assertThat(spec.sourceConfig())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "topic", "orders",
                "poll.interval.ms", "500",
                "server.port", "8086",
                "server.tls", "true",
                "hosts", "a,b"));
    assertThat(spec.namespaceFields()).containsExactly("type", "meta.region");
    assertThat(spec.namespaceSeparator()).isEqualTo("__");
  }

  @Test
  void readsTheTransformsTheLakeAndTheSyncSettingsOfARunWithoutKafka() {
    PipelineSpec spec =
        parse(
                "pipelines:",
                "  orders:",
                "    source: {class: A, config: {topic: orders}}",
                "    transforms:",
                "      transforms: infer",
                "      transforms.infer.type: io.skippr.connect.transforms.InferSchema$Value",
                "    lake:",
                "      config: {topics.dir: s3://bucket/lake, s3: {region: eu-west-1}, flush.size: 10}",
                "    sync: {idle.ms: 1500}")
            .pipeline("orders");
    assertThat(spec.transforms())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "transforms", "infer",
                "transforms.infer.type", "io.skippr.connect.transforms.InferSchema$Value"));
    assertThat(spec.lakeConfig())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("topics.dir", "s3://bucket/lake", "s3.region", "eu-west-1", "flush.size", "10"));
    assertThat(spec.syncConfig()).containsExactly(Map.entry("sync.idle.ms", "1500"));
    assertThatThrownBy(
            () -> parse("pipelines:", "  a: {source: {class: A}, lake: {config: 3}}").pipeline("a"))
        .hasMessageContaining("pipelines.a.lake.config must be a mapping");
  }

  @Test
  void listsAreJoinedWithCommasInEveryMappingOfAPipeline() {
    PipelineSpec spec =
        parse(
                "pipelines:",
                "  orders:",
                "    source: {class: A, config: {topics: [a, b], none: []}}",
                "    transforms: {transforms: [infer, route]}",
                "    lake:",
                "      config:",
                "        partition.fields:",
                "          - region",
                "          - day",
                "    sync: {tables: ['x', \"y\"]}")
            .pipeline("orders");
    assertThat(spec.sourceConfig()).containsEntry("topics", "a,b").containsEntry("none", "");
    assertThat(spec.transforms()).containsEntry("transforms", "infer,route");
    assertThat(spec.lakeConfig()).containsEntry("partition.fields", "region,day");
    assertThat(spec.syncConfig()).containsEntry("sync.tables", "x,y");
  }

  @Test
  void aListWithNoFlatFormIsRefusedNamingItsKey() {
    assertThatThrownBy(
            () ->
                parse("pipelines: {a: {source: {class: A, config: {t: [x, 'y,z']}}}}")
                    .pipeline("a"))
        .isInstanceOf(DiscoveryException.class)
        .hasMessage(
            "/etc/skippr.yml: pipelines.a.source.config.t (item 2): a list item may not hold a"
                + " comma (the list is read as its items joined with commas); write the whole"
                + " value as one string instead");
    assertThatThrownBy(
            () -> parse("pipelines: {a: {source: {class: A}, sync: {t: [{x: 1}]}}}").pipeline("a"))
        .isInstanceOf(DiscoveryException.class)
        .hasMessage(
            "/etc/skippr.yml: pipelines.a.sync.t (item 1): a list item must be a scalar, not a"
                + " mapping");
  }

  @Test
  void appliesDefaults() {
    SkipprYaml yaml =
        parse(
            "pipelines:",
            "  a: {source: {class: A}}",
            "  b: {source: {class: B}, namespace_fields: 'x, y'}");
    PipelineSpec a = yaml.pipeline("a");
    assertThat(a.id()).isEqualTo(PipelineId.of("a"));
    assertThat(a.sourceConfig()).isEmpty();
    assertThat(a.namespaceFields()).isEmpty();
    assertThat(a.namespaceSeparator()).isEqualTo(".");
    assertThat(yaml.pipeline("b").namespaceFields()).containsExactly("x", "y");
    assertThat(yaml.names()).containsExactly("a", "b");
  }

  @Test
  void locatesTheFileByOptionThenEnvironmentThenWorkingDirectory() {
    Path work = Path.of("/work");
    assertThat(SkipprYaml.locate(Path.of("x.yml"), Map.of("SKIPPR_CONFIG", "/e.yml"), work))
        .as("relative to the working directory")
        .isEqualTo(Path.of("/work/x.yml"));
    assertThat(SkipprYaml.locate(null, Map.of("SKIPPR_CONFIG", "/e.yml"), work))
        .isEqualTo(Path.of("/e.yml"));
    assertThat(SkipprYaml.locate(null, Map.of(), work)).isEqualTo(Path.of("/work/skippr.yml"));
  }

  @Test
  void badFilesAreClearErrors() {
    List.of(
            List.of(
                "/etc/skippr.yml: no 'pipelines' mapping with at least one pipeline", "other: 1"),
            List.of(
                "/etc/skippr.yml: pipelines.a.source.class is missing",
                "pipelines: {a: {source: {config: {}}}}"),
            List.of(
                "/etc/skippr.yml: pipelines.a.source is missing (needs class and config)",
                "pipelines: {a: {tenant: t}}"),
            List.of(
                "/etc/skippr.yml: pipelines.a: unknown key namspace_fields (known: lake,"
                    + " namespace_fields, namespace_separator, source, sync, tenant, transforms,"
                    + " workspace)",
                "pipelines: {a: {source: {class: A}, namspace_fields: [x]}}"),
            List.of(
                "/etc/skippr.yml: pipelines.a.source.config must be a mapping",
                "pipelines: {a: {source: {class: A, config: [1]}}}"),
            List.of(
                "/etc/skippr.yml: pipelines.a.namespace_fields must be a list of field names",
                "pipelines: {a: {source: {class: A}, namespace_fields: {x: 1}}}"),
            List.of(
                "/etc/skippr.yml: pipelines.a: tenant \"x/y\" contains '/', '\\' or a control"
                    + " character",
                "pipelines: {a: {source: {class: A}, tenant: x/y}}"))
        .forEach(
            c ->
                assertThatThrownBy(() -> parse(c.get(1)).pipeline("a"))
                    .isInstanceOf(DiscoveryException.class)
                    .hasMessage(c.get(0)));
    assertThatThrownBy(() -> parse("pipelines:", "  a: [", "  b"))
        .isInstanceOf(DiscoveryException.class)
        .hasMessageStartingWith("/etc/skippr.yml: not valid YAML (line ");
  }

  @Test
  void aBrokenPipelineDoesNotBlockTheOthers() {
    SkipprYaml yaml = parse("pipelines: {bad: {source: {}}, good: {source: {class: G}}}");
    assertThat(yaml.pipeline("good").sourceClass()).isEqualTo("G");
    assertThatThrownBy(() -> yaml.pipeline("bad"))
        .hasMessage("/etc/skippr.yml: pipelines.bad.source.class is missing");
  }

  @Test
  void anUnknownPipelineNamesTheKnownOnes() {
    SkipprYaml yaml = parse("pipelines: {a: {source: {class: A}}, b: {source: {class: B}}}");
    assertThatThrownBy(() -> yaml.pipeline("c"))
        .hasMessage("unknown pipeline 'c' in /etc/skippr.yml (it defines: a, b)");
  }
}
