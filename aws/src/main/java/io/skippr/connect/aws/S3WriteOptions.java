package io.skippr.connect.aws;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.function.Consumer;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * What every request on a bucket's objects carries: server-side encryption (SSE-S3, SSE-KMS,
 * DSSE-KMS), or a customer key (SSE-C: writes, reads and copies must all send it), and a canned ACL
 * for new objects. Each method fills one request's builder: {@code
 * r.bucket(b).key(k).applyMutation(options::putObject)}. The customer key never prints.
 *
 * @param encryption SSE-S3 or (DSSE-)KMS for new objects, or null
 * @param kmsKeyId the KMS key of (DSSE-)KMS, or null for the bucket's default key
 * @param customerKey SSE-C: the base64 of a 256-bit AES key, or null
 * @param acl the canned ACL of new objects, or null
 */
public record S3WriteOptions(
    ServerSideEncryption encryption, String kmsKeyId, String customerKey, ObjectCannedACL acl) {
  /** Nothing beyond the bucket's defaults. */
  public static final S3WriteOptions NONE = new S3WriteOptions(null, null, null, null);

  /** The only algorithm of SSE-C. */
  public static final String CUSTOMER_ALGORITHM = "AES256";

  public S3WriteOptions {
    if (customerKey != null && keyBytes(customerKey) == null) {
      throw new IllegalArgumentException("the SSE-C key is not the base64 of 32 bytes");
    }
    if (customerKey != null && encryption != null) {
      throw new IllegalArgumentException("SSE-C excludes SSE-S3 and SSE-KMS");
    }
    if (kmsKeyId != null
        && encryption != ServerSideEncryption.AWS_KMS
        && encryption != ServerSideEncryption.AWS_KMS_DSSE) {
      throw new IllegalArgumentException("a KMS key id needs aws:kms or aws:kms:dsse");
    }
  }

  /** The 32 bytes of a base64 SSE-C key, or null when it is not one. */
  public static byte[] keyBytes(String base64) {
    try {
      byte[] key = Base64.getDecoder().decode(base64.strip());
      return key.length == 32 ? key : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  public void putObject(PutObjectRequest.Builder r) {
    r.serverSideEncryption(encryption).ssekmsKeyId(kmsKeyId).acl(acl);
    customer(r::sseCustomerAlgorithm, r::sseCustomerKey, r::sseCustomerKeyMD5);
  }

  public void createMultipartUpload(CreateMultipartUploadRequest.Builder r) {
    r.serverSideEncryption(encryption).ssekmsKeyId(kmsKeyId).acl(acl);
    customer(r::sseCustomerAlgorithm, r::sseCustomerKey, r::sseCustomerKeyMD5);
  }

  /** Parts of an SSE-C upload carry the key again; other encryption is the upload's. */
  public void uploadPart(UploadPartRequest.Builder r) {
    customer(r::sseCustomerAlgorithm, r::sseCustomerKey, r::sseCustomerKeyMD5);
  }

  public void completeMultipartUpload(CompleteMultipartUploadRequest.Builder r) {
    customer(r::sseCustomerAlgorithm, r::sseCustomerKey, r::sseCustomerKeyMD5);
  }

  /** A copy within the lake: the source is read with the key, the target written with it. */
  public void copyObject(CopyObjectRequest.Builder r) {
    r.serverSideEncryption(encryption).ssekmsKeyId(kmsKeyId).acl(acl);
    customer(r::sseCustomerAlgorithm, r::sseCustomerKey, r::sseCustomerKeyMD5);
    customer(
        r::copySourceSSECustomerAlgorithm,
        r::copySourceSSECustomerKey,
        r::copySourceSSECustomerKeyMD5);
  }

  public void uploadPartCopy(UploadPartCopyRequest.Builder r) {
    customer(r::sseCustomerAlgorithm, r::sseCustomerKey, r::sseCustomerKeyMD5);
    customer(
        r::copySourceSSECustomerAlgorithm,
        r::copySourceSSECustomerKey,
        r::copySourceSSECustomerKeyMD5);
  }

  public void getObject(GetObjectRequest.Builder r) {
    customer(r::sseCustomerAlgorithm, r::sseCustomerKey, r::sseCustomerKeyMD5);
  }

  public void headObject(HeadObjectRequest.Builder r) {
    customer(r::sseCustomerAlgorithm, r::sseCustomerKey, r::sseCustomerKeyMD5);
  }

  /**
   * What to add to the message of a failed request: a write refused with 403 while no encryption is
   * configured is most often a bucket policy that demands it.
   *
   * @param what the request as {@link AwsRetries} names it ({@code "PUT s3://…"})
   */
  public String advice(String what, SdkException failure) {
    boolean write =
        what.startsWith("PUT") || what.startsWith("CREATE UPLOAD") || what.startsWith("COPY");
    if (write
        && encryption == null
        && customerKey == null
        && failure instanceof AwsServiceException service
        && service.statusCode() == 403) {
      return "; if the bucket policy requires server-side encryption, set "
          + S3WriteOptionsConfig.SSE_ALGORITHM
          + " (AES256, aws:kms or aws:kms:dsse)";
    }
    return "";
  }

  /** Sets the SSE-C algorithm, key and key digest through a builder's three setters. */
  private void customer(Consumer<String> algorithm, Consumer<String> key, Consumer<String> digest) {
    if (customerKey != null) {
      algorithm.accept(CUSTOMER_ALGORITHM);
      key.accept(customerKey);
      digest.accept(keyMd5());
    }
  }

  /** The base64 MD5 of the SSE-C key, as S3 wants it beside the key; null without one. */
  public String customerKeyMd5() {
    return customerKey == null ? null : keyMd5();
  }

  private String keyMd5() {
    try {
      byte[] digest = MessageDigest.getInstance("MD5").digest(keyBytes(customerKey));
      return new String(Base64.getEncoder().encode(digest), StandardCharsets.US_ASCII);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has MD5", e);
    }
  }

  /** The settings; the customer key shows only whether it is set. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    if (encryption != null) {
      out.append("SSE ").append(encryption);
      if (kmsKeyId != null) {
        out.append(" key ").append(kmsKeyId);
      }
    }
    if (customerKey != null) {
      out.append("SSE-C (key configured)");
    }
    if (acl != null) {
      out.append(out.isEmpty() ? "" : ", ").append("ACL ").append(acl);
    }
    return out.isEmpty() ? "bucket defaults" : out.toString();
  }
}
