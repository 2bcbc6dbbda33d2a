package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

/**
 * The state store's credential keys ({@code store.dynamodb.*}) are checked in combination as the
 * lake's own ({@code s3.credentials.provider.class}, {@code sts.role.*}) are, each problem on the
 * key to change.
 */
class StoreCredentialChecksTest {
  private static final String ASSUME =
      "io.confluent.connect.s3.auth.AwsAssumeRoleCredentialsProvider";

  private static Map<String, String> props() {
    Map<String, String> props = new HashMap<>();
    props.put("name", "lake");
    props.put("topics", "orders");
    props.put("topics.dir", "s3://acme-lake/raw");
    props.put("s3.region", "eu-west-1");
    props.put("flush.size", "1000");
    props.put("store.type", "dynamodb");
    props.put("store.name", "skippr-state");
    return props;
  }

  @Test
  void theStoresAssumeRoleProviderWithoutItsRoleIsReportedOnItsRoleKey() {
    Map<String, String> props = props();
    props.put("store.dynamodb.credentials.provider.class", ASSUME);
    // The lake's own role does not count for the store.
    props.put("sts.role.arn", "arn:aws:iam::123456789012:role/lake-writer");
    Map<String, List<String>> errors = errors(props);
    assertThat(errors).containsOnlyKeys("store.dynamodb.sts.role.arn");
    assertThat(errors.get("store.dynamodb.sts.role.arn"))
        .singleElement()
        .asString()
        .contains("store.dynamodb.credentials.provider.class=" + ASSUME);

    props.put("store.dynamodb.sts.role.arn", "arn:aws:iam::123456789012:role/lake-writer");
    assertThat(errors(props)).isEmpty();
  }

  @Test
  void theStoresExternalIdWithoutARoleIsReportedOnItsKey() {
    Map<String, String> props = props();
    props.put("store.dynamodb.sts.role.external.id", "acme-7f3e91");
    assertThat(errors(props)).containsOnlyKeys("store.dynamodb.sts.role.external.id");
  }

  @Test
  void theLakesProblemsStayOnTheLakesKeys() {
    Map<String, String> props = props();
    props.put("s3.credentials.provider.class", ASSUME);
    props.put("store.dynamodb.sts.role.arn", "arn:aws:iam::123456789012:role/state");
    assertThat(errors(props)).containsOnlyKeys("sts.role.arn");
  }

  private static Map<String, List<String>> errors(Map<String, String> props) {
    return LakeSinkConfig.validate(props).configValues().stream()
        .filter(v -> !v.errorMessages().isEmpty())
        .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }
}
