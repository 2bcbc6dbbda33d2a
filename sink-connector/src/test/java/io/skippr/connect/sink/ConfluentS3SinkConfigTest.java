package io.skippr.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.aws.AssumeRole;
import io.skippr.connect.lake.storage.S3Config;
import io.skippr.connect.lake.storage.S3Location;
import io.skippr.connect.lake.storage.StorageConfig;
import io.skippr.connect.lake.write.LakeSinkConfig;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * A Confluent S3 sink configuration that assumes a role and encrypts with SSE-KMS, as its users run
 * it on MSK Connect or EKS, is a valid lake sink configuration once {@code connector.class} is
 * changed, and means the same: the same bucket, role, session, external id, KMS key and ACL.
 */
class ConfluentS3SinkConfigTest {
  private static final String KMS_KEY =
      "arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab";

  /** As Confluent's documentation and MSK Connect examples write it. */
  private static Map<String, String> confluent() {
    Map<String, String> c = new HashMap<>();
    c.put("name", "s3-sink");
    c.put("connector.class", "io.confluent.connect.s3.S3SinkConnector");
    c.put("tasks.max", "2");
    c.put("topics", "orders,payments");
    c.put("s3.region", "eu-west-1");
    c.put("s3.bucket.name", "acme-data-lake");
    c.put("s3.part.size", "26214400");
    c.put("flush.size", "10000");
    c.put("rotate.interval.ms", "600000");
    c.put("storage.class", "io.confluent.connect.s3.storage.S3Storage");
    c.put("format.class", "io.confluent.connect.s3.format.parquet.ParquetFormat");
    c.put("parquet.codec", "snappy");
    c.put("partitioner.class", "io.confluent.connect.storage.partitioner.DefaultPartitioner");
    c.put("schema.compatibility", "NONE");
    c.put("behavior.on.null.values", "ignore");
    c.put(
        "s3.credentials.provider.class",
        "io.confluent.connect.s3.auth.AwsAssumeRoleCredentialsProvider");
    c.put("sts.role.arn", "arn:aws:iam::123456789012:role/kafka-s3-writer");
    c.put("sts.role.session.name", "kafka-connect-s3");
    c.put("sts.role.external.id", "acme-7f3e91");
    c.put("s3.ssea.name", "aws:kms");
    c.put("s3.sse.kms.key.id", KMS_KEY);
    c.put("s3.acl.canned", "bucket-owner-full-control");
    c.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    c.put("value.converter", "io.confluent.connect.avro.AvroConverter");
    c.put("value.converter.schema.registry.url", "http://schema-registry:8081");
    return c;
  }

  private static Map<String, String> ours() {
    Map<String, String> c = confluent();
    c.put("connector.class", LakeSinkConnector.class.getName());
    return c;
  }

  @Test
  void validatesWithOnlyTheConnectorClassChanged() {
    Map<String, List<String>> errors =
        new LakeSinkConnector()
            .validate(ours()).configValues().stream()
                .filter(v -> !v.errorMessages().isEmpty())
                .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
    assertThat(errors).isEmpty();
  }

  @Test
  void meansTheSameBucketRoleAndEncryption() {
    LakeSinkConfig config = new LakeSinkConfig(ours());
    StorageConfig storage = StorageConfig.from(config);
    assertThat(storage.s3Location()).contains(new S3Location("acme-data-lake", "topics"));
    S3Config s3 = storage.s3().orElseThrow();
    assertThat(s3.aws().region()).isEqualTo("eu-west-1");
    assertThat(s3.aws().credentials()).as("no static keys: the default chain").isNull();
    assertThat(s3.aws().assumeRole())
        .isEqualTo(
            new AssumeRole(
                "arn:aws:iam::123456789012:role/kafka-s3-writer",
                "kafka-connect-s3",
                "acme-7f3e91"));
    assertThat(s3.aws().stsEndpoint()).isNull();
    assertThat(s3.writeOptions().encryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
    assertThat(s3.writeOptions().kmsKeyId()).isEqualTo(KMS_KEY);
    assertThat(s3.writeOptions().acl()).isEqualTo(ObjectCannedACL.BUCKET_OWNER_FULL_CONTROL);
    assertThat(s3.partSize()).isEqualTo(26214400);
  }

  @Test
  void ourNamesSayTheSame() {
    Map<String, String> c = ours();
    c.remove("s3.ssea.name");
    c.put("s3.sse.algorithm", "aws:kms");
    c.put(
        "s3.credentials.provider.class",
        "software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider");
    c.put("sts.endpoint", "https://sts.eu-west-1.amazonaws.com");
    S3Config s3 = StorageConfig.from(new LakeSinkConfig(c)).s3().orElseThrow();
    assertThat(s3.writeOptions().encryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
    assertThat(s3.aws().assumeRole().roleArn()).endsWith("role/kafka-s3-writer");
    assertThat(s3.aws().stsEndpoint()).isEqualTo(URI.create("https://sts.eu-west-1.amazonaws.com"));
  }

  @Test
  void crossFieldProblemsNameTheKeyToChange() {
    Map<String, String> noRole = ours();
    noRole.remove("sts.role.arn");
    assertThat(errorsOf(noRole)).containsOnlyKeys("sts.role.arn", "sts.role.external.id");
    Map<String, String> keyWithoutKms = ours();
    keyWithoutKms.put("s3.ssea.name", "AES256");
    assertThat(errorsOf(keyWithoutKms)).containsOnlyKeys("s3.sse.kms.key.id");
    Map<String, String> bothSse = ours();
    bothSse.put("s3.sse.algorithm", "AES256");
    bothSse.remove("s3.sse.kms.key.id");
    bothSse.put("s3.sse.customer.key", "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=");
    assertThat(errorsOf(bothSse)).containsOnlyKeys("s3.sse.customer.key");
    Map<String, String> shortKey = ours();
    shortKey.remove("s3.ssea.name");
    shortKey.remove("s3.sse.kms.key.id");
    shortKey.put("s3.sse.customer.key", "c2hvcnQ=");
    Map<String, List<String>> errors = errorsOf(shortKey);
    assertThat(errors).containsOnlyKeys("s3.sse.customer.key");
    assertThat(errors.get("s3.sse.customer.key").toString())
        .contains("256-bit")
        .doesNotContain("c2hvcnQ=");
    Map<String, String> noLake = ours();
    noLake.remove("s3.bucket.name");
    assertThat(errorsOf(noLake)).containsOnlyKeys("topics.dir");
  }

  private static Map<String, List<String>> errorsOf(Map<String, String> props) {
    return new LakeSinkConnector()
        .validate(props).configValues().stream()
            .filter(v -> !v.errorMessages().isEmpty())
            .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }
}
