package io.skippr.connect.state.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.state.api.StateStoreConfig;
import io.skippr.connect.state.api.StateStoreContractTest;
import io.skippr.connect.testkit.DynaliteServer;
import io.skippr.connect.testkit.HttpFaultProxy;
import io.skippr.connect.testkit.S3Policies;
import io.skippr.connect.testkit.StsTestServer;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The whole store contract on dynalite with a role assumed through an STS on 127.0.0.1 ({@code
 * store.dynamodb.sts.*}): every DynamoDB request the store makes is signed with the role's
 * temporary keys (a proxy in front of dynalite refuses any other), refreshed as they near expiry.
 */
class DynamoDbAssumeRoleIT extends StateStoreContractTest {
  private static final String TABLE = "skippr-state-role";
  private static final String ROLE = "arn:aws:iam::123456789012:role/skippr-state";
  private static DynaliteServer dynalite;
  private static StsTestServer sts;
  private static HttpFaultProxy proxy;

  @BeforeAll
  static void start() {
    dynalite = DynaliteServer.start();
    sts = StsTestServer.start(Duration.ofSeconds(63));
    proxy = HttpFaultProxy.start(dynalite.endpoint(), 0, 1, Duration.ZERO);
    proxy.gate(S3Policies.signedBy(sts));
  }

  @AfterAll
  static void stopAndCheckEverySignature() {
    try {
      Set<String> issued =
          sts.issued().stream().map(StsTestServer.Issued::accessKeyId).collect(Collectors.toSet());
      assertThat(proxy.seen()).isNotEmpty();
      assertThat(proxy.seen()).allSatisfy(r -> assertThat(issued).contains(r.accessKeyId()));
      assertThat(sts.issued())
          .allSatisfy(
              i -> {
                assertThat(i.roleArn()).isEqualTo(ROLE);
                assertThat(i.sessionName()).isEqualTo("state-store");
                assertThat(i.externalId()).isEqualTo("ext-9");
              });
    } finally {
      proxy.close();
      sts.close();
      dynalite.close();
    }
  }

  @Override
  protected Map<String, String> storeConfig() {
    return Map.of(
        StateStoreConfig.STORE_TYPE,
        "dynamodb",
        StateStoreConfig.STORE_NAME,
        TABLE,
        DynamoDbStateStoreProvider.STORE_DYNAMODB_ENDPOINT,
        proxy.endpoint().toString(),
        DynamoDbStateStoreProvider.STORE_DYNAMODB_CREATE_TABLE,
        "true",
        "store.dynamodb.sts.role.arn",
        ROLE,
        "store.dynamodb.sts.role.session.name",
        "state-store",
        "store.dynamodb.sts.role.external.id",
        "ext-9",
        "store.dynamodb.sts.endpoint",
        sts.endpoint().toString());
  }
}
