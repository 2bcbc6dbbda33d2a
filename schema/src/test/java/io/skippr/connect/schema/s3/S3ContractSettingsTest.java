package io.skippr.connect.schema.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.aws.AwsKeys;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class S3ContractSettingsTest {
  @Test
  void noBucketMeansNoS3() {
    assertThat(S3ContractSettings.fromEnvironment(Map.of())).isEmpty();
    assertThat(S3ContractSettings.fromEnvironment(Map.of("SKIPPR_S3_BUCKET", " "))).isEmpty();
  }

  @Test
  void readsTheEnvironment() {
    S3ContractSettings s =
        S3ContractSettings.fromEnvironment(
                Map.of(
                    "SKIPPR_S3_BUCKET", "lake",
                    "SKIPPR_S3_PREFIX", "/contracts/v1/",
                    "SKIPPR_S3_ENDPOINT", "http://127.0.0.1:9000",
                    "AWS_REGION", "eu-west-1",
                    "AWS_ACCESS_KEY_ID", "id",
                    "AWS_SECRET_ACCESS_KEY", "secret"))
            .orElseThrow();
    assertThat(s.bucket()).isEqualTo("lake");
    assertThat(s.prefix()).isEqualTo("contracts/v1");
    assertThat(s.aws().endpoint()).isEqualTo(URI.create("http://127.0.0.1:9000"));
    assertThat(s.aws().region()).isEqualTo("eu-west-1");
    assertThat(s.aws().pathStyleAccess()).isTrue();
    assertThat(s.aws().credentials()).isEqualTo(new AwsKeys("id", "secret", null));
    assertThat(s.location()).isEqualTo("s3://lake/contracts/v1/");
    assertThat(s.toString()).doesNotContain("secret").contains("credentials (configured)");
  }

  @Test
  void ownVariablesWinAndPathStyleIsOffForAws() {
    S3ContractSettings s =
        S3ContractSettings.fromEnvironment(
                Map.of(
                    "SKIPPR_S3_BUCKET", "lake",
                    "SKIPPR_S3_REGION", "us-west-2",
                    "AWS_REGION", "eu-west-1",
                    "AWS_DEFAULT_REGION", "ap-south-1"))
            .orElseThrow();
    assertThat(s.aws().region()).isEqualTo("us-west-2");
    assertThat(s.aws().endpoint()).isNull();
    assertThat(s.aws().pathStyleAccess()).isFalse();
    assertThat(s.aws().credentials()).isNull();
    assertThat(s.location()).isEqualTo("s3://lake/");
    S3ContractSettings explicit =
        S3ContractSettings.fromEnvironment(
                Map.of(
                    "SKIPPR_S3_BUCKET", "lake",
                    "SKIPPR_S3_ENDPOINT", "https://s3.example.test",
                    "SKIPPR_S3_PATH_STYLE_ACCESS", "FALSE"))
            .orElseThrow();
    assertThat(explicit.aws().pathStyleAccess()).isFalse();
  }

  @Test
  void locationsNameBucketAndPrefix() {
    S3ContractSettings s = S3ContractSettings.forLocation("S3://lake/a/b/", Map.of());
    assertThat(s.bucket()).isEqualTo("lake");
    assertThat(s.prefix()).isEqualTo("a/b");
    assertThat(S3ContractSettings.forLocation("s3://lake", Map.of()).prefix()).isEmpty();
    assertThat(S3ContractSettings.isS3Uri("s3://x")).isTrue();
    assertThat(S3ContractSettings.isS3Uri("/data/s3")).isFalse();
  }

  @Test
  void wrongValuesSayWhatIsWrongAndWhere() {
    assertThatThrownBy(
            () -> S3ContractSettings.fromEnvironment(Map.of("SKIPPR_S3_BUCKET", "My_Bucket")))
        .hasMessage(
            "bucket 'My_Bucket' is not a valid S3 bucket name (3-63 characters:"
                + " lowercase letters, digits, '.' and '-', starting and ending with a letter or"
                + " digit)");
    assertThatThrownBy(
            () ->
                S3ContractSettings.fromEnvironment(
                    Map.of("SKIPPR_S3_BUCKET", "lake", "SKIPPR_S3_ENDPOINT", "ftp://host")))
        .hasMessage(
            "SKIPPR_S3_ENDPOINT: endpoint 'ftp://host' is not of the form http(s)://host[:port]");
    assertThatThrownBy(
            () ->
                S3ContractSettings.fromEnvironment(
                    Map.of("SKIPPR_S3_BUCKET", "lake", "SKIPPR_S3_ENDPOINT", "127.0.0.1:9000")))
        .hasMessageStartingWith("SKIPPR_S3_ENDPOINT: '127.0.0.1:9000' is not a URI: ");
    assertThatThrownBy(
            () ->
                S3ContractSettings.fromEnvironment(
                    Map.of("SKIPPR_S3_BUCKET", "lake", "SKIPPR_S3_PATH_STYLE_ACCESS", "yes")))
        .hasMessage("SKIPPR_S3_PATH_STYLE_ACCESS: expected true or false, got yes");
    assertThatThrownBy(
            () ->
                S3ContractSettings.fromEnvironment(
                    Map.of("SKIPPR_S3_BUCKET", "lake", "AWS_ACCESS_KEY_ID", "id")))
        .hasMessage("set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither");
    assertThatThrownBy(() -> S3ContractSettings.forLocation("s3:///p", Map.of()))
        .hasMessage("no bucket in s3:///p; use s3://bucket/prefix");
    assertThatThrownBy(() -> S3ContractSettings.forLocation("s3://lake/a//b", Map.of()))
        .hasMessage("s3://lake/a//b: S3 key prefix 'a//b' has an empty segment");
  }
}
