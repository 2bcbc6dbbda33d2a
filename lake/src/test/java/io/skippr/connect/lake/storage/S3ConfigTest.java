package io.skippr.connect.lake.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class S3ConfigTest {
  private static final ConfigDef DEF = StorageConfig.define(new ConfigDef());

  private static StorageConfig storage(String... keyValues) {
    Map<String, String> props = new HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      props.put(keyValues[i], keyValues[i + 1]);
    }
    return StorageConfig.from(new AbstractConfig(DEF, props));
  }

  @Test
  void anS3UriNamesBucketAndPrefix() {
    StorageConfig config = storage("topics.dir", "s3://my-lake/raw/topics/");
    assertThat(config.s3Location()).contains(new S3Location("my-lake", "raw/topics"));
    assertThat(config.s3Location().get().toString()).isEqualTo("s3://my-lake/raw/topics/");
    assertThat(config.s3Location().get().objectKey("t/x")).isEqualTo("raw/topics/t/x");
    assertThat(storage("topics.dir", "s3://my-lake").s3Location())
        .contains(new S3Location("my-lake", ""));
    assertThat(new S3Location("my-lake", "").objectKey("t/x")).isEqualTo("t/x");
  }

  @Test
  void aBucketNameMakesTopicsDirThePrefixInsideIt() {
    StorageConfig config = storage("topics.dir", "topics", "s3.bucket.name", "my-lake");
    assertThat(config.s3Location()).contains(new S3Location("my-lake", "topics"));
    assertThat(storage("topics.dir", "s3://my-lake/x", "s3.bucket.name", "my-lake").s3Location())
        .contains(new S3Location("my-lake", "x"));
  }

  @Test
  void aLocalPathStaysLocal() {
    StorageConfig config = storage("topics.dir", "/data/lake");
    assertThat(config.s3Location()).isEmpty();
    assertThat(config.s3()).isEmpty();
    assertThat(storage("topics.dir", "file:///data/lake").s3Location()).isEmpty();
  }

  @Test
  void contradictionsAndBadLocationsAreRefusedNamingTheKey() {
    assertThatThrownBy(() -> storage("topics.dir", "s3://one/x", "s3.bucket.name", "two"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("s3.bucket.name")
        .hasMessageContaining("another bucket");
    assertThatThrownBy(() -> storage("topics.dir", "file:///x", "s3.bucket.name", "two"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("key prefix inside the bucket");
    assertThatThrownBy(() -> storage("topics.dir", "s3://Bad_Bucket/x"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("not a valid S3 bucket name");
    assertThatThrownBy(() -> storage("topics.dir", "s3:///x"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("no bucket");
    assertThatThrownBy(() -> storage("topics.dir", "s3://lake/a/../b"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("'..'");
    assertThatThrownBy(() -> storage("topics.dir", "gs://lake/x"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("'gs:' is not supported");
    assertThatThrownBy(() -> storage("topics.dir", "t", "s3.bucket.name", "ab"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("s3.bucket.name");
  }

  @Test
  void defaultsAreSaneAndKeysAreRead() {
    S3Config defaults = storage("topics.dir", "s3://lake").s3().orElseThrow();
    assertThat(defaults.partSize()).isEqualTo(8 << 20);
    assertThat(defaults.aws().retry().maxAttempts()).isEqualTo(10);
    assertThat(defaults.aws().retry().baseBackoffMs()).isEqualTo(200);
    assertThat(defaults.aws().pathStyleAccess()).isFalse();
    assertThat(defaults.aws().region()).isNull();
    assertThat(defaults.aws().endpoint()).isNull();
    assertThat(defaults.aws().credentials()).isNull();

    S3Config set =
        storage(
                "topics.dir", "s3://lake",
                "s3.region", "eu-west-1",
                "s3.endpoint", "http://127.0.0.1:9000",
                "s3.path.style.access", "true",
                "s3.part.size", String.valueOf(16 << 20),
                "s3.retry.max.attempts", "4",
                "s3.retry.backoff.ms", "50")
            .s3()
            .orElseThrow();
    assertThat(set.aws().region()).isEqualTo("eu-west-1");
    assertThat(set.aws().endpoint()).isEqualTo(URI.create("http://127.0.0.1:9000"));
    assertThat(set.aws().pathStyleAccess()).isTrue();
    assertThat(set.partSize()).isEqualTo(16 << 20);
    assertThat(set.aws().retry().maxAttempts()).isEqualTo(4);
    assertThat(set.aws().retry().baseBackoffMs()).isEqualTo(50);
  }

  @Test
  void invalidValuesAreRefusedPerKey() {
    String[][] bad = {
      {"s3.part.size", String.valueOf((5 << 20) - 1)},
      {"s3.retry.max.attempts", "0"},
      {"s3.retry.backoff.ms", "-1"},
      {"s3.endpoint", "ftp://host"},
      {"s3.endpoint", "127.0.0.1:9000"},
      {"s3.region", "EU WEST"},
      {"aws.access.key.id", " "},
    };
    for (String[] keyValue : bad) {
      assertThatThrownBy(() -> storage("topics.dir", "s3://lake", keyValue[0], keyValue[1]))
          .as(keyValue[0] + "=" + keyValue[1])
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining(keyValue[0]);
    }
  }

  @Test
  void credentialsComeInPairsAndAreNeverPrinted() {
    assertThatThrownBy(() -> storage("topics.dir", "s3://lake", "aws.access.key.id", "AKIAX"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("aws.secret.access.key");
    S3Config config =
        storage(
                "topics.dir", "s3://lake",
                "aws.access.key.id", "AKIAEXAMPLEKEY",
                "aws.secret.access.key", "very-secret-value")
            .s3()
            .orElseThrow();
    assertThat(config.aws().credentials().accessKeyId()).isEqualTo("AKIAEXAMPLEKEY");
    assertThat(config.toString())
        .doesNotContain("AKIAEXAMPLEKEY")
        .doesNotContain("very-secret-value")
        .contains("credentials (configured)");
    Map<String, String> props =
        Map.of(
            "topics.dir", "s3://lake",
            "aws.access.key.id", "AKIAEXAMPLEKEY",
            "aws.secret.access.key", "very-secret-value");
    assertThat(new AbstractConfig(DEF, props).values().toString())
        .doesNotContain("very-secret-value");
    assertThat(DEF.configKeys().get("aws.secret.access.key").type)
        .isEqualTo(ConfigDef.Type.PASSWORD);
    assertThat(DEF.configKeys().get("aws.access.key.id").type).isEqualTo(ConfigDef.Type.PASSWORD);
  }

  @Test
  void everyKeyHasADocAndAValidatorOrAType() {
    for (String key :
        new String[] {
          S3Config.BUCKET_NAME,
          S3Config.REGION,
          S3Config.ENDPOINT,
          S3Config.PATH_STYLE_ACCESS,
          S3Config.PART_SIZE,
          S3Config.ACCESS_KEY_ID,
          S3Config.SECRET_ACCESS_KEY,
          S3Config.RETRY_MAX_ATTEMPTS,
          S3Config.RETRY_BACKOFF_MS
        }) {
      ConfigDef.ConfigKey def = DEF.configKeys().get(key);
      assertThat(def).as(key).isNotNull();
      assertThat(def.documentation).as(key).isNotBlank();
      assertThat(def.validator != null || def.type == ConfigDef.Type.BOOLEAN).as(key).isTrue();
    }
  }
}
