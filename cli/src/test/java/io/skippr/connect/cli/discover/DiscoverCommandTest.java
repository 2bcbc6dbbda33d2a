package io.skippr.connect.cli.discover;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.ContractStore;
import io.skippr.connect.schema.PipelineId;
import io.skippr.connect.schema.SchemaFlag;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class DiscoverCommandTest {
  private static final String FIXED = FixedSourceConnector.class.getName();

  @TempDir Path dir;
  private Path yml;
  private Path data;
  private final Map<String, String> env = new HashMap<>();

  @BeforeEach
  void writeConfig() throws Exception {
    data = dir.resolve("data");
    yml = dir.resolve("skippr.yml");
    Files.writeString(
        yml,
        String.join(
            "\n",
            "pipelines:",
            "  orders:",
            "    tenant: acme",
            "    workspace: prod",
            "    source:",
            "      class: " + FIXED,
            "      config:",
            "        topic: orders",
            "        records: 10",
            "  split:",
            "    source: {class: " + FIXED + ", config: {topic: orders, records: 6}}",
            "    namespace_fields: [type]",
            "  empty:",
            "    source: {class: " + FIXED + ", config: {topic: t, records: 0}}",
            "  broken:",
            "    source: {class: " + FIXED + ", config: {topic: t, fail: true}}",
            "  unconfigured:",
            "    source: {class: " + FIXED + ", config: {records: 3}}",
            "  notasource:",
            "    source: {class: java.lang.String}",
            "  missing:",
            "    source: {class: com.example.NoSuchConnector}",
            ""));
    FixedSourceConnector.COMMITS.set(0);
    FixedSourceConnector.OFFSETS_FOUND.set(0);
  }

  private CommandRun discover(String... args) {
    return run(new DiscoverCommand(env, dir), args);
  }

  private CommandRun schema(String... args) {
    return run(new SchemaCommand(env, dir), args);
  }

  private CommandRun run(Object command, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    if (!all.contains("--config")) {
      all.addAll(List.of("--config", yml.toString()));
    }
    if (!all.contains("--data-dir") && !env.containsKey("SKIPPR_S3_BUCKET")) {
      all.addAll(List.of("--data-dir", data.toString()));
    }
    if (command instanceof DiscoverCommand) {
      all.addAll(List.of("--plugin-dir", dir.resolve("no-plugins").toString()));
    }
    return CommandRun.of(command, all);
  }

  @Test
  void discoversSavesAndPrintsTheContract() {
    CommandRun run = discover("--pipeline", "orders", "--sample", "8");

    assertThat(run.exit()).as(run.err()).isZero();
    PipelineId id = new PipelineId("acme", "prod", "orders");
    ContractStore store = new ContractStore(data);
    List<Contract> saved = store.load(id);
    assertThat(saved).hasSize(1);
    Contract contract = saved.get(0);
    assertThat(contract.namespace()).isEqualTo("orders");
    assertThat(types(contract.schema()))
        .containsExactly(
            "code=string",
            "created_at=timestamp",
            "customer=struct",
            "id=int32",
            "items=array",
            "note=string",
            "type=string");
    Schema item = contract.schema().field("items").schema().valueSchema();
    assertThat(types(item)).containsExactly("qty=int32", "sku=string");
    assertThat(contract.flags())
        .containsExactly(
            new SchemaFlag("code", SchemaFlag.Kind.TYPE_CONFLICT, "int32,string"),
            new SchemaFlag("note", SchemaFlag.Kind.NULL_ONLY, ""));

    assertThat(run.out())
        .startsWith("pipeline acme/prod/orders: sampled 8 records in ")
        .contains("saved 1 contract to " + store.path(id) + "\n\norders  (8 records, sha256:")
        .containsPattern("\n  code +string +nullable  type-conflict \\(int32, string\\)\n")
        .containsPattern("\n    vip +boolean +nullable\n")
        .containsPattern("\n  items +array<struct> +nullable\n    qty +int32 +nullable\n");
    assertThat(run.err()).isEmpty();
    assertThat(FixedSourceConnector.COMMITS).hasValue(0);
    assertThat(FixedSourceConnector.OFFSETS_FOUND).hasValue(0);
  }

  @Test
  void schemaPrintsWhatDiscoverSaved() throws Exception {
    assertThat(discover("--pipeline", "orders", "--sample", "10").exit()).isZero();

    CommandRun text = schema("--pipeline", "orders");
    assertThat(text.exit()).as(text.err()).isZero();
    assertThat(text.out()).startsWith("orders  (sha256:").contains("\n    sku ");

    CommandRun json = schema("--pipeline", "orders", "--output", "json");
    JsonNode printed = new ObjectMapper().readTree(json.out());
    JsonNode file =
        new ObjectMapper()
            .readTree(
                new ContractStore(data).path(new PipelineId("acme", "prod", "orders")).toFile());
    assertThat(printed).isEqualTo(file);
    assertThat(printed.get("contracts").get(0).get("namespace").asText()).isEqualTo("orders");
  }

  @Test
  void namespaceFieldsGiveOneContractPerNamespace() throws Exception {
    CommandRun run = discover("--pipeline", "split", "--sample", "6", "--output", "json");

    assertThat(run.exit()).as(run.err()).isZero();
    List<Contract> saved = new ContractStore(data).load(PipelineId.of("split"));
    assertThat(saved).extracting(Contract::namespace).containsExactly("orders.shop", "orders.web");
    assertThat(saved.get(0).flags()).extracting(SchemaFlag::path).contains("code");
    assertThat(saved.get(1).schema().field("code").schema().type()).isEqualTo(Schema.Type.INT32);
    JsonNode printed = new ObjectMapper().readTree(run.out());
    assertThat(printed.get("contracts")).hasSize(2);
  }

  @Test
  void namespaceFieldsComeFromTheEnvironmentWhenSkipprYmlHasNone() {
    env.put("TRANSFORM_NAMESPACE_FIELDS", "type");
    assertThat(discover("--pipeline", "orders", "--sample", "10").exit()).isZero();
    assertThat(new ContractStore(data).load(new PipelineId("acme", "prod", "orders")))
        .extracting(Contract::namespace)
        .containsExactly("orders.shop", "orders.web");
  }

  @Test
  void problemsAreOneLineErrors() {
    assertError(
        discover("--pipeline", "nope"),
        "skippr discover: unknown pipeline 'nope' in "
            + yml
            + " (it defines: orders, split, empty, broken, unconfigured, notasource, missing)");
    assertError(
        discover("--pipeline", "missing"),
        "skippr discover: source class com.example.NoSuchConnector not found in the plugin"
            + " directory "
            + dir.resolve("no-plugins")
            + " (set --plugin-dir or -Dskippr.plugin.dir)");
    assertError(
        discover("--pipeline", "notasource"),
        "skippr discover: java.lang.String is not a SourceConnector");
    assertError(
        discover("--pipeline", "unconfigured"),
        "skippr discover: source config rejected by "
            + FIXED
            + ": topic: Missing required configuration \"topic\" which has no default value.");
    assertError(
        discover("--pipeline", "empty", "--timeout", "1"),
        "skippr discover: source "
            + FIXED
            + " yielded no records within 1 s (is data flowing? try a longer --timeout)");
    assertError(
        discover("--pipeline", "broken"),
        "skippr discover: source task failed: upstream is unreachable");
    assertError(
        schema("--pipeline", "split"),
        "skippr schema: no contract saved for pipeline default/default/split at "
            + data.resolve("default/default/split/metadata.json")
            + " (run: skippr discover --pipeline split)");
    assertThat(Files.exists(data)).isFalse();
  }

  @Test
  void wrongS3SettingsAreOneLineErrorsBeforeAnythingRuns() {
    env.put("SKIPPR_S3_BUCKET", "Not_A_Bucket");
    assertError(
        discover("--pipeline", "orders"),
        "skippr discover: bucket 'Not_A_Bucket' is not a valid S3 bucket name (3-63 characters:"
            + " lowercase letters, digits, '.' and '-', starting and ending with a letter or"
            + " digit)");
    assertError(
        schema("--pipeline", "orders", "--data-dir", "s3://lake/a//b"),
        "skippr schema: s3://lake/a//b: S3 key prefix 'a//b' has an empty segment");
    assertThat(Files.exists(dir.resolve("data"))).isFalse();
  }

  @Test
  void theDataDirectoryOptionWinsOverTheBucketVariable() {
    env.put("SKIPPR_S3_BUCKET", "lake");
    env.put("SKIPPR_S3_ENDPOINT", "http://127.0.0.1:1");
    CommandRun run =
        discover("--pipeline", "orders", "--sample", "3", "--data-dir", data.toString());
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(new ContractStore(data).load(new PipelineId("acme", "prod", "orders"))).hasSize(1);
  }

  @Test
  void aMissingConfigFileIsAOneLineError() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new SchemaCommand(env, dir.resolve("elsewhere")));
    cli.setErr(new PrintWriter(err));
    assertThat(cli.execute("--pipeline", "orders")).isEqualTo(1);
    assertThat(err.toString())
        .isEqualTo(
            "skippr schema: "
                + dir.resolve("elsewhere/skippr.yml")
                + " not found (pass --config FILE or set SKIPPR_CONFIG)\n");
  }

  private static void assertError(CommandRun run, String line) {
    assertThat(run.exit()).as(run.out()).isEqualTo(1);
    assertThat(run.err()).isEqualTo(line + "\n");
  }

  private static List<String> types(Schema struct) {
    List<String> out = new ArrayList<>();
    for (Field field : struct.fields()) {
      out.add(field.name() + "=" + io.skippr.connect.schema.Schemas.typeName(field.schema()));
    }
    return out;
  }
}
