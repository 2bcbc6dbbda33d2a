package io.skippr.connect.transforms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.PipelineId;
import io.skippr.connect.schema.s3.S3ContractSettings;
import io.skippr.connect.schema.s3.S3ContractStore;
import io.skippr.connect.testkit.S3MockServer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The transforms read contracts {@code skippr discover} saved in S3 (S3Mock): named by {@code
 * contract.data.dir=s3://…} or by the worker's SKIPPR_S3_BUCKET, with the {@code contract.s3.*}
 * keys overriding the environment.
 */
@ExtendWith(S3MockServer.Shared.class)
class ContractsInS3IT {
  private static final String BUCKET = "transform-contracts";
  private static final PipelineId ID = new PipelineId("acme", "prod", "shop");
  private static final Schema ORDER =
      SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();

  private static S3MockServer server;

  @BeforeAll
  static void saveContracts(S3MockServer s3) {
    server = s3;
    server.createBucket(BUCKET);
    for (String prefix : List.of("from-config", "from-env")) {
      S3ContractSettings settings = new S3ContractSettings(BUCKET, prefix, server.aws());
      try (S3ContractStore store = S3ContractStore.open(settings)) {
        store.save(ID, List.of(new Contract("orders." + prefix, ORDER)));
      }
    }
  }

  private static Map<String, String> credentials() {
    Map<String, String> env = new HashMap<>();
    env.put("AWS_ACCESS_KEY_ID", S3MockServer.ACCESS_KEY);
    env.put("AWS_SECRET_ACCESS_KEY", S3MockServer.SECRET_KEY);
    return env;
  }

  private static Contracts load(Map<String, String> env, String... props) {
    Map<String, String> config = new HashMap<>();
    config.put(ContractConfig.PIPELINE, ID.toString());
    for (int i = 0; i < props.length; i += 2) {
      config.put(props[i], props[i + 1]);
    }
    return ContractConfig.from(new AbstractConfig(ValidateContract.CONFIG_DEF, config), env);
  }

  @Test
  void readsAnS3DataDirWithTheEndpointKey() {
    Contracts contracts =
        load(
            credentials(),
            "contract.data.dir",
            "s3://" + BUCKET + "/from-config",
            "contract.s3.endpoint",
            server.endpoint().toString());
    assertThat(contracts.forKey("orders.from-config")).map(Contract::schema).contains(ORDER);
    assertThat(contracts.origin())
        .isEqualTo("s3://" + BUCKET + "/from-config/acme/prod/shop/metadata.json");
  }

  @Test
  void readsTheBucketOfTheWorkersEnvironment() {
    Map<String, String> env = credentials();
    env.put("SKIPPR_S3_BUCKET", BUCKET);
    env.put("SKIPPR_S3_PREFIX", "from-env");
    env.put("SKIPPR_S3_ENDPOINT", server.endpoint().toString());
    env.put("DATA_DIR", "/nonexistent");
    Contracts contracts = load(env);
    assertThat(contracts.forKey("orders.from-env")).map(Contract::schema).contains(ORDER);
    assertThat(contracts.origin())
        .isEqualTo("s3://" + BUCKET + "/from-env/acme/prod/shop/metadata.json");
  }

  @Test
  void s3ProblemsAreConfigErrorsNamingTheObject() {
    Map<String, String> env = credentials();
    assertThatThrownBy(
            () ->
                load(
                    env,
                    "contract.data.dir",
                    "s3://no-such-bucket/x",
                    "contract.s3.endpoint",
                    server.endpoint().toString()))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "Invalid value acme/prod/shop for configuration contract.pipeline: GET"
                + " s3://no-such-bucket/x/acme/prod/shop/metadata.json: bucket 'no-such-bucket'"
                + " does not exist");
    assertThatThrownBy(
            () ->
                load(
                    env,
                    "contract.data.dir",
                    "s3://" + BUCKET + "/nothing-here",
                    "contract.s3.endpoint",
                    server.endpoint().toString()))
        .hasMessageContaining(
            "no contracts saved at s3://" + BUCKET + "/nothing-here/acme/prod/shop/metadata.json");
  }
}
