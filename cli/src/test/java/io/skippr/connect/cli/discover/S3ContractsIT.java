package io.skippr.connect.cli.discover;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.aws.AwsClients;
import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.ContractDocument;
import io.skippr.connect.testkit.FreePorts;
import io.skippr.connect.testkit.S3MockServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code skippr discover} and {@code skippr schema} with contracts in S3 (S3Mock): the environment
 * names the bucket, the contract lands in it (read back with the SDK, not through the CLI), and the
 * problems of S3 are one-line errors.
 */
@ExtendWith(S3MockServer.Shared.class)
class S3ContractsIT {
  private static final String BUCKET = "cli-contracts";
  private static final String KEY = "team/contracts/acme/prod/orders/metadata.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  private static S3MockServer server;
  private static S3Client raw;

  @TempDir Path dir;
  private final Map<String, String> env = new HashMap<>();

  @BeforeAll
  static void connect(S3MockServer s3) {
    server = s3;
    server.createBucket(BUCKET);
    raw = AwsClients.s3(server.aws(), Duration.ofSeconds(30));
  }

  @AfterAll
  static void disconnect() {
    raw.close();
  }

  @BeforeEach
  void environment() throws Exception {
    Files.writeString(
        dir.resolve("skippr.yml"),
        String.join(
            "\n",
            "pipelines:",
            "  orders:",
            "    tenant: acme",
            "    workspace: prod",
            "    source: {class: "
                + FixedSourceConnector.class.getName()
                + ", config: {topic: orders, records: 10}}",
            ""));
    env.put("SKIPPR_S3_BUCKET", BUCKET);
    env.put("SKIPPR_S3_PREFIX", "team/contracts");
    env.put("SKIPPR_S3_ENDPOINT", server.endpoint().toString());
    env.put("AWS_ACCESS_KEY_ID", S3MockServer.ACCESS_KEY);
    env.put("AWS_SECRET_ACCESS_KEY", S3MockServer.SECRET_KEY);
    env.put("DATA_DIR", dir.resolve("local").toString());
  }

  private CommandRun run(Object command, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--config", dir.resolve("skippr.yml").toString()));
    if (command instanceof DiscoverCommand) {
      all.addAll(List.of("--plugin-dir", dir.resolve("no-plugins").toString()));
    }
    return CommandRun.of(command, all);
  }

  private CommandRun discover(String... args) {
    return run(new DiscoverCommand(env, dir), args);
  }

  private CommandRun schema(String... args) {
    return run(new SchemaCommand(env, dir), args);
  }

  private byte[] object(String key) {
    return raw.getObjectAsBytes(r -> r.bucket(BUCKET).key(key)).asByteArray();
  }

  @Test
  void discoverSavesTheContractInTheBucketAndSchemaPrintsIt() throws Exception {
    raw.deleteObject(r -> r.bucket(BUCKET).key(KEY));
    CommandRun missing = schema("--pipeline", "orders");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err())
        .isEqualTo(
            "skippr schema: no contract saved for pipeline acme/prod/orders at s3://"
                + BUCKET
                + "/"
                + KEY
                + " (run: skippr discover --pipeline orders)\n");

    CommandRun discovered = discover("--pipeline", "orders", "--sample", "10");
    assertThat(discovered.exit()).as(discovered.err()).isZero();
    assertThat(discovered.out()).contains("saved 1 contract to s3://" + BUCKET + "/" + KEY + "\n");

    List<Contract> stored = ContractDocument.decode(object(KEY), KEY);
    assertThat(stored).extracting(Contract::namespace).containsExactly("orders");
    assertThat(stored.get(0).schema().field("id").schema().type()).isEqualTo(Schema.Type.INT32);
    assertThat(stored.get(0).schema().field("items").schema().type()).isEqualTo(Schema.Type.ARRAY);
    assertThat(server.objectKeys(BUCKET, "team/")).containsExactly(KEY);
    assertThat(dir.resolve("local")).doesNotExist();
    assertThat(dir.resolve("data")).doesNotExist();

    CommandRun json = schema("--pipeline", "orders", "--output", "json");
    assertThat(json.exit()).as(json.err()).isZero();
    assertThat(JSON.readTree(json.out())).isEqualTo(JSON.readTree(object(KEY)));
    CommandRun text = schema("--pipeline", "orders");
    assertThat(text.out()).startsWith("orders  (sha256:").contains("\n    sku ");
  }

  @Test
  void anS3DataDirectoryNamesBucketAndPrefix() {
    env.remove("SKIPPR_S3_BUCKET");
    CommandRun run =
        discover("--pipeline", "orders", "--data-dir", "s3://" + BUCKET + "/elsewhere/");
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(server.objectKeys(BUCKET, "elsewhere/"))
        .containsExactly("elsewhere/acme/prod/orders/metadata.json");
    assertThat(ContractDocument.decode(object("elsewhere/acme/prod/orders/metadata.json"), "x"))
        .hasSize(1);
  }

  @Test
  void aMissingBucketFailsDiscoverBeforeSampling() {
    env.put("SKIPPR_S3_BUCKET", "no-such-bucket");
    int commits = FixedSourceConnector.COMMITS.get();
    CommandRun run = discover("--pipeline", "orders");
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err())
        .isEqualTo(
            "skippr discover: cannot save contracts: GET s3://no-such-bucket/team/contracts/acme/"
                + "prod/orders/metadata.json: bucket 'no-such-bucket' does not exist\n");
    assertThat(run.out()).isEmpty();
    assertThat(FixedSourceConnector.COMMITS.get()).isEqualTo(commits);
  }

  @Test
  void anUnreachableEndpointIsAOneLineError() {
    String nowhere = "http://127.0.0.1:" + FreePorts.one();
    env.put("SKIPPR_S3_ENDPOINT", nowhere);
    CommandRun run = schema("--pipeline", "orders");
    assertThat(run.exit()).isEqualTo(1);
    assertThat(run.err())
        .startsWith(
            "skippr schema: GET s3://" + BUCKET + "/" + KEY + ": cannot reach " + nowhere + ": ")
        .endsWith("\n");
    assertThat(run.err().lines()).hasSize(1);
  }
}
