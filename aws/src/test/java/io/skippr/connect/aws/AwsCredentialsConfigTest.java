package io.skippr.connect.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

class AwsCredentialsConfigTest {
  private static final String ROLE = "arn:aws:iam::123456789012:role/lake";

  private static ConfigDef def(AwsCredentialsConfig keys) {
    return keys.define(new ConfigDef(), "AWS", 0);
  }

  private static Map<String, List<String>> singleKeyErrors(Map<String, String> props) {
    Map<String, List<String>> errors = new HashMap<>();
    for (ConfigValue v : def(AwsCredentialsConfig.S3).validate(props)) {
      if (!v.errorMessages().isEmpty()) {
        errors.put(v.name(), v.errorMessages());
      }
    }
    return errors;
  }

  @Test
  void theDefaultsAssumeNothing() {
    AbstractConfig c = new AbstractConfig(def(AwsCredentialsConfig.S3), Map.of());
    AwsSettings aws = AwsCredentialsConfig.S3.apply(AwsSettings.defaults(), ConfigLookup.of(c));
    assertThat(aws.assumeRole()).isNull();
    assertThat(aws.stsEndpoint()).isNull();
    assertThat(c.getString("s3.credentials.provider.class"))
        .isEqualTo(AwsCredentialsConfig.DEFAULT_CHAIN);
  }

  @Test
  void aRoleArnAssumesTheRoleWithTheDefaultSessionName() {
    AwsSettings aws =
        AwsCredentialsConfig.S3.apply(
            AwsSettings.defaults(),
            ConfigLookup.of(Map.of("sts.role.arn", ROLE, "sts.endpoint", "http://127.0.0.1:1")));
    assertThat(aws.assumeRole()).isEqualTo(new AssumeRole(ROLE, "skippr-connect", null));
    assertThat(aws.stsEndpoint()).isEqualTo(URI.create("http://127.0.0.1:1"));
  }

  @Test
  void confluentsProviderClassNamesAreAliases() {
    for (String name :
        List.of(
            AwsCredentialsConfig.CONFLUENT_ASSUME_ROLE,
            AwsCredentialsConfig.ASSUME_ROLE,
            AwsCredentialsConfig.CONFLUENT_DEFAULT_CHAIN,
            AwsCredentialsConfig.DEFAULT_CHAIN)) {
      assertThat(singleKeyErrors(Map.of("s3.credentials.provider.class", name))).isEmpty();
    }
    assertThat(singleKeyErrors(Map.of("s3.credentials.provider.class", "com.acme.MyProvider")))
        .containsOnlyKeys("s3.credentials.provider.class");
  }

  @Test
  void eachKeyIsCheckedOnItsOwn() {
    assertThat(singleKeyErrors(Map.of("sts.role.arn", "lake-role")))
        .containsOnlyKeys("sts.role.arn");
    assertThat(singleKeyErrors(Map.of("sts.role.session.name", "a b")))
        .containsOnlyKeys("sts.role.session.name");
    assertThat(singleKeyErrors(Map.of("sts.endpoint", "sts.amazonaws.com")))
        .containsOnlyKeys("sts.endpoint");
  }

  @Test
  void combinationsAreCheckedOnTheKeyToChange() {
    Map<String, String> problems =
        AwsCredentialsConfig.S3.problems(
            ConfigLookup.of(
                Map.of(
                    "s3.credentials.provider.class",
                    AwsCredentialsConfig.CONFLUENT_ASSUME_ROLE,
                    "sts.role.external.id",
                    "ext-1")));
    assertThat(problems).containsOnlyKeys("sts.role.arn", "sts.role.external.id");
    assertThatThrownBy(
            () ->
                AwsCredentialsConfig.S3.apply(
                    AwsSettings.defaults(),
                    ConfigLookup.of(
                        Map.of("s3.credentials.provider.class", AwsCredentialsConfig.ASSUME_ROLE))))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("sts.role.arn");
  }

  @Test
  void theStoreHasTheSameKeysUnderItsPrefix() {
    assertThat(def(AwsCredentialsConfig.DYNAMODB_STORE).names())
        .containsExactlyInAnyOrder(
            "store.dynamodb.credentials.provider.class",
            "store.dynamodb.sts.role.arn",
            "store.dynamodb.sts.role.session.name",
            "store.dynamodb.sts.role.external.id",
            "store.dynamodb.sts.endpoint");
    assertThat(def(AwsCredentialsConfig.CONTRACT_STORE).names())
        .contains("contract.s3.sts.role.arn");
  }

  @Test
  void theProviderIsStaticKeysOrTheRoleOnTop() {
    AwsSettings keys =
        AwsSettings.defaults()
            .withEndpoint(URI.create("http://127.0.0.1:9"))
            .withCredentials(new AwsKeys("AKIA1", "secret", null));
    assertThat(AwsCredentialProviders.of(keys, "eu-west-1"))
        .isInstanceOf(StaticCredentialsProvider.class);
    assertThat(
            AwsCredentialProviders.of(
                keys.withAssumeRole(new AssumeRole(ROLE, "s", "x"))
                    .withStsEndpoint(URI.create("http://127.0.0.1:9")),
                "eu-west-1"))
        .isInstanceOfSatisfying(
            StsCredentials.class,
            sts -> assertThat(sts.provider()).isInstanceOf(StsAssumeRoleCredentialsProvider.class));
  }

  @Test
  void settingsNeverPrintSecrets() {
    AwsSettings aws =
        AwsSettings.defaults()
            .withCredentials(new AwsKeys("AKIA1", "wJalrXUtnFEMI", "FwoGZXIvYXdz"))
            .withAssumeRole(new AssumeRole(ROLE, "s", "external-secret"));
    assertThat(aws.toString())
        .contains(ROLE)
        .doesNotContain("wJalrXUtnFEMI")
        .doesNotContain("FwoGZXIvYXdz")
        .doesNotContain("external-secret");
  }
}
