package io.skippr.connect.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

class S3WriteOptionsTest {
  private static final String KEY =
      Base64.getEncoder()
          .encodeToString("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));

  /** MD5 of the key above, base64, computed independently (openssl dgst -md5 -binary | base64). */
  private static final String KEY_MD5 = "hRasmdxgYDKV3nvbahU1MA==";

  private static final ConfigDef DEF = S3WriteOptionsConfig.define(new ConfigDef(), "S3", 0);

  private static S3WriteOptions from(Map<String, String> props) {
    return S3WriteOptionsConfig.from(ConfigLookup.of(new AbstractConfig(DEF, props)));
  }

  private static Map<String, List<String>> errors(Map<String, String> props) {
    Map<String, List<String>> errors = new HashMap<>();
    for (ConfigValue v : DEF.validate(props)) {
      if (!v.errorMessages().isEmpty()) {
        errors.put(v.name(), v.errorMessages());
      }
    }
    S3WriteOptionsConfig.problems(ConfigLookup.of(props))
        .forEach((key, problem) -> errors.put(key, List.of(problem)));
    return errors;
  }

  @Test
  void kmsAndAclGoOnEveryRequestThatCreatesAnObject() {
    S3WriteOptions options =
        from(
            Map.of(
                "s3.sse.algorithm", "aws:kms",
                "s3.sse.kms.key.id", "alias/lake",
                "s3.acl.canned", "bucket-owner-full-control"));
    PutObjectRequest put = PutObjectRequest.builder().applyMutation(options::putObject).build();
    assertThat(put.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
    assertThat(put.ssekmsKeyId()).isEqualTo("alias/lake");
    assertThat(put.acl()).isEqualTo(ObjectCannedACL.BUCKET_OWNER_FULL_CONTROL);
    CreateMultipartUploadRequest create =
        CreateMultipartUploadRequest.builder()
            .applyMutation(options::createMultipartUpload)
            .build();
    assertThat(create.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
    assertThat(create.acl()).isEqualTo(ObjectCannedACL.BUCKET_OWNER_FULL_CONTROL);
    CopyObjectRequest copy = CopyObjectRequest.builder().applyMutation(options::copyObject).build();
    assertThat(copy.ssekmsKeyId()).isEqualTo("alias/lake");
    assertThat(copy.acl()).isEqualTo(ObjectCannedACL.BUCKET_OWNER_FULL_CONTROL);
    UploadPartRequest part = UploadPartRequest.builder().applyMutation(options::uploadPart).build();
    assertThat(part.sseCustomerKey()).isNull();
  }

  @Test
  void aCustomerKeyGoesOnWritesReadsAndBothSidesOfCopies() {
    S3WriteOptions options = from(Map.of("s3.sse.customer.key", KEY));
    PutObjectRequest put = PutObjectRequest.builder().applyMutation(options::putObject).build();
    assertThat(put.sseCustomerAlgorithm()).isEqualTo("AES256");
    assertThat(put.sseCustomerKey()).isEqualTo(KEY);
    assertThat(put.sseCustomerKeyMD5()).isEqualTo(KEY_MD5);
    assertThat(put.serverSideEncryption()).isNull();
    assertThat(
            UploadPartRequest.builder()
                .applyMutation(options::uploadPart)
                .build()
                .sseCustomerKeyMD5())
        .isEqualTo(KEY_MD5);
    assertThat(
            CompleteMultipartUploadRequest.builder()
                .applyMutation(options::completeMultipartUpload)
                .build()
                .sseCustomerKey())
        .isEqualTo(KEY);
    assertThat(
            GetObjectRequest.builder()
                .applyMutation(options::getObject)
                .build()
                .sseCustomerKeyMD5())
        .isEqualTo(KEY_MD5);
    assertThat(
            HeadObjectRequest.builder().applyMutation(options::headObject).build().sseCustomerKey())
        .isEqualTo(KEY);
    UploadPartCopyRequest copy =
        UploadPartCopyRequest.builder().applyMutation(options::uploadPartCopy).build();
    assertThat(copy.copySourceSSECustomerKeyMD5()).isEqualTo(KEY_MD5);
    assertThat(copy.sseCustomerKeyMD5()).isEqualTo(KEY_MD5);
    assertThat(options.toString()).contains("SSE-C").doesNotContain(KEY);
  }

  @Test
  void confluentsAlgorithmNameWorksAndAes256WithACustomerKeyIsSseC() {
    assertThat(from(Map.of("s3.ssea.name", "AES256")).encryption())
        .isEqualTo(ServerSideEncryption.AES256);
    S3WriteOptions sseC = from(Map.of("s3.ssea.name", "AES256", "s3.sse.customer.key", KEY));
    assertThat(sseC.encryption()).isNull();
    assertThat(sseC.customerKey()).isEqualTo(KEY);
  }

  @Test
  void wrongValuesAndCombinationsAreReportedOnTheKeyToChange() {
    assertThat(errors(Map.of("s3.sse.algorithm", "aws:kms2"))).containsOnlyKeys("s3.sse.algorithm");
    assertThat(errors(Map.of("s3.acl.canned", "owner"))).containsOnlyKeys("s3.acl.canned");
    assertThat(errors(Map.of("s3.sse.kms.key.id", "alias/lake")))
        .containsOnlyKeys("s3.sse.kms.key.id");
    assertThat(errors(Map.of("s3.sse.algorithm", "AES256", "s3.sse.kms.key.id", "alias/lake")))
        .containsOnlyKeys("s3.sse.kms.key.id");
    assertThat(errors(Map.of("s3.sse.algorithm", "aws:kms:dsse", "s3.sse.kms.key.id", "k")))
        .isEmpty();
    assertThat(errors(Map.of("s3.sse.algorithm", "aws:kms", "s3.sse.customer.key", KEY)))
        .containsOnlyKeys("s3.sse.customer.key");
    String notAKey = Base64.getEncoder().encodeToString(new byte[16]);
    Map<String, List<String>> shortKey = errors(Map.of("s3.sse.customer.key", notAKey));
    assertThat(shortKey).containsOnlyKeys("s3.sse.customer.key");
    assertThat(shortKey.toString()).contains("256-bit").doesNotContain(notAKey);
    assertThat(DEF.configKeys().get("s3.sse.customer.key").type).isEqualTo(ConfigDef.Type.PASSWORD);
  }

  @Test
  void aForbiddenWriteWithoutEncryptionAdvisesTheKey() {
    S3Exception denied =
        (S3Exception)
            S3Exception.builder()
                .statusCode(403)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("AccessDenied").build())
                .build();
    assertThat(S3WriteOptions.NONE.advice("PUT s3://b/k", denied)).contains("s3.sse.algorithm");
    assertThat(S3WriteOptions.NONE.advice("CREATE UPLOAD s3://b/k", denied))
        .contains("s3.sse.algorithm");
    assertThat(S3WriteOptions.NONE.advice("GET s3://b/k", denied)).isEmpty();
    assertThat(from(Map.of("s3.sse.algorithm", "AES256")).advice("PUT s3://b/k", denied)).isEmpty();
  }

  @Test
  void theRecordRefusesContradictions() {
    assertThatThrownBy(() -> new S3WriteOptions(null, "k", null, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new S3WriteOptions(ServerSideEncryption.AES256, null, KEY, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new S3WriteOptions(null, null, "bm90IGEga2V5", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining("bm90IGEga2V5");
  }
}
