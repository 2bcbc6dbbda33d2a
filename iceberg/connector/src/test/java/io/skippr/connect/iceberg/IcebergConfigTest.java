package io.skippr.connect.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.lake.storage.StorageConfig;
import io.skippr.connect.lake.write.LakeSinkConfig;
import io.skippr.connect.testkit.ConfigReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

/** The iceberg.* keys: in the sink's ConfigDef once installed, validated, documented. */
class IcebergConfigTest {
  private static Map<String, String> props() {
    Map<String, String> props = new HashMap<>();
    props.put("name", "lake");
    props.put("topics", "orders");
    props.put("topics.dir", "/tmp/lake");
    props.put("iceberg.enabled", "true");
    return props;
  }

  private static List<String> errors(Map<String, String> props, String key) {
    for (ConfigValue value : LakeSinkConfig.validate(props).configValues()) {
      if (value.name().equals(key)) {
        return value.errorMessages();
      }
    }
    throw new AssertionError(key + " is not a key of the sink");
  }

  @Test
  void theIcebergPartAddsItsKeysToTheSink() {
    assertThat(LakeSinkConfig.configDef().names())
        .contains(
            "iceberg.enabled",
            IcebergConfig.CATALOG,
            IcebergConfig.NAMESPACE,
            IcebergConfig.COMMIT_INTERVAL_MS);
    Map<String, String> props = props();
    props.put("iceberg.catalog.type", "jdbc");
    assertThat(errors(props, "iceberg.enabled")).isEmpty();
    assertThat(errors(props, IcebergConfig.CATALOG)).isEmpty();
    IcebergConfig config = IcebergConfig.from(props);
    assertThat(config.catalogName()).isEqualTo("iceberg");
    assertThat(config.namespace().levels()).containsExactly("default");
    assertThat(config.commitIntervalMs()).isEqualTo(1000);
    assertThat(config.catalogProperties()).containsEntry("type", "jdbc");
  }

  @Test
  void aCatalogOfNoKindAndABadNamespaceAreErrorsOnTheirKeys() {
    Map<String, String> props = props();
    assertThat(errors(props, IcebergConfig.CATALOG)).singleElement().asString().contains("type");
    props.put("iceberg.catalog.type", "rest");
    props.put(IcebergConfig.NAMESPACE, "lake..raw");
    assertThat(errors(props, IcebergConfig.NAMESPACE)).hasSize(1);
    props.put(IcebergConfig.NAMESPACE, "lake.raw");
    props.put(IcebergConfig.COMMIT_INTERVAL_MS, "-1");
    assertThat(errors(props, IcebergConfig.COMMIT_INTERVAL_MS)).hasSize(1);
  }

  @Test
  void anS3LakeReadsItsFilesWithTheLakesS3SettingsUnlessTheCatalogSaysOtherwise() {
    Map<String, String> props = props();
    props.put("topics.dir", "s3://bucket/lake");
    props.put("s3.endpoint", "http://127.0.0.1:9000");
    props.put("s3.path.style.access", "true");
    props.put("iceberg.catalog.s3.endpoint", "http://127.0.0.1:9999");
    StorageConfig storage =
        StorageConfig.from(new AbstractConfig(LakeSinkConfig.configDef(), props, false));
    Map<String, String> catalog = IcebergConfig.catalogProperties(props, storage);
    assertThat(catalog)
        .containsEntry("io-impl", IcebergConfig.S3_FILE_IO)
        .containsEntry("s3.endpoint", "http://127.0.0.1:9999")
        .containsEntry("s3.path-style-access", "true")
        .containsEntry("http-client.type", "urlconnection")
        .containsKey("client.region");
    props.put("topics.dir", "/tmp/lake");
    props.remove("iceberg.catalog.s3.endpoint");
    storage = StorageConfig.from(new AbstractConfig(LakeSinkConfig.configDef(), props, false));
    assertThat(IcebergConfig.catalogProperties(props, storage))
        .containsEntry("io-impl", io.skippr.connect.iceberg.io.LocalFileIO.class.getName());
  }

  @Test
  void theLakesAssumedRoleEncryptionAndAclReachIcebergsFileIo() {
    Map<String, String> props = props();
    props.put("topics.dir", "s3://bucket/lake");
    props.put("s3.region", "eu-west-1");
    props.put("sts.role.arn", "arn:aws:iam::123456789012:role/lake");
    props.put("sts.role.external.id", "ext-1");
    props.put("s3.sse.algorithm", "aws:kms");
    props.put("s3.sse.kms.key.id", "alias/lake");
    props.put("s3.acl.canned", "bucket-owner-full-control");
    StorageConfig storage =
        StorageConfig.from(new AbstractConfig(LakeSinkConfig.configDef(), props, false));
    assertThat(IcebergConfig.catalogProperties(props, storage))
        .containsEntry("client.factory", "org.apache.iceberg.aws.AssumeRoleAwsClientFactory")
        .containsEntry("client.assume-role.arn", "arn:aws:iam::123456789012:role/lake")
        .containsEntry("client.assume-role.region", "eu-west-1")
        .containsEntry("client.assume-role.external-id", "ext-1")
        .containsEntry("s3.sse.type", "kms")
        .containsEntry("s3.sse.key", "alias/lake")
        .containsEntry("s3.acl", "bucket-owner-full-control");
    props.remove("s3.sse.algorithm");
    props.remove("s3.sse.kms.key.id");
    props.put("s3.sse.customer.key", "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=");
    storage = StorageConfig.from(new AbstractConfig(LakeSinkConfig.configDef(), props, false));
    assertThat(IcebergConfig.catalogProperties(props, storage))
        .containsEntry("s3.sse.type", "custom")
        .containsEntry("s3.sse.key", "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=")
        .containsEntry("s3.sse.md5", "hRasmdxgYDKV3nvbahU1MA==");
  }

  @Test
  void theExampleConfigIsValid() throws Exception {
    Path example = null;
    for (Path p = Path.of("").toAbsolutePath(); p != null && example == null; p = p.getParent()) {
      if (Files.exists(p.resolve("config/lake-sink-iceberg.json"))) {
        example = p.resolve("config/lake-sink-iceberg.json");
      }
    }
    assertThat(example).as("config/lake-sink-iceberg.json").isNotNull();
    Map<String, String> config = new HashMap<>();
    new ObjectMapper()
        .readTree(example.toFile())
        .fields()
        .forEachRemaining(e -> config.put(e.getKey(), e.getValue().asText()));
    config.put("name", "example");
    List<String> problems = new java.util.ArrayList<>();
    for (ConfigValue value : LakeSinkConfig.validate(config).configValues()) {
      value.errorMessages().forEach(m -> problems.add(value.name() + ": " + m));
    }
    assertThat(problems).isEmpty();
    assertThat(IcebergConfig.from(config).catalogProperties())
        .containsEntry("type", "rest")
        .containsEntry("io-impl", IcebergConfig.S3_FILE_IO);
  }

  @Test
  void configurationReferenceIsUpToDate() {
    ConfigReference.check("lake-sink-iceberg", "Lake sink: Iceberg", IcebergConfig.configDef());
  }
}
