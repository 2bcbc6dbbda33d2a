package io.skippr.connect.lake.storage;

import io.skippr.connect.aws.AwsRetries;
import io.skippr.connect.aws.S3WriteOptions;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.UploadPartCopyResponse;

/**
 * A copy of one object to another key of the same bucket, made by S3 itself: one {@code CopyObject}
 * up to S3's limit for it (5 GiB), a multipart upload of {@code UploadPartCopy} ranges above. The
 * target becomes visible only when the copy is complete.
 */
final class S3Copy {
  /** The largest object one {@code CopyObject} may copy. */
  static final long SINGLE_COPY_LIMIT = 5L << 30;

  private static final int MAX_PARTS = 10_000;

  private final S3Client s3;
  private final String bucket;
  private final AwsRetries retries;
  private final long singleCopyLimit;
  private final long partBytes;
  private S3WriteOptions write = S3WriteOptions.NONE;

  /**
   * @param singleCopyLimit objects above this size are copied in parts
   * @param partBytes the size of a part (the last one is smaller)
   */
  S3Copy(S3Client s3, String bucket, AwsRetries retries, long singleCopyLimit, long partBytes) {
    this.s3 = s3;
    this.bucket = bucket;
    this.retries = retries;
    this.singleCopyLimit = singleCopyLimit;
    this.partBytes = partBytes;
  }

  /** Reads the source and writes the target with these encryption and ACL settings. */
  S3Copy writeOptions(S3WriteOptions options) {
    this.write = options;
    return this;
  }

  /**
   * Copies {@code source} to {@code target} (object keys), replacing any object there.
   *
   * @throws NoSuchFileException when {@code source} does not exist
   */
  void copy(String source, String target) throws IOException {
    long size = sizeOf(source);
    if (size <= singleCopyLimit) {
      retries.call(
          "COPY " + uri(source) + " to " + uri(target),
          attempt -> {
            try {
              return s3.copyObject(
                  r ->
                      r.sourceBucket(bucket)
                          .sourceKey(source)
                          .destinationBucket(bucket)
                          .destinationKey(target)
                          .applyMutation(write::copyObject));
            } catch (S3Exception e) {
              if (e.statusCode() == 404) {
                throw missing(source);
              }
              throw e;
            }
          });
    } else {
      copyInParts(source, target, size);
    }
  }

  private long sizeOf(String source) throws IOException {
    return retries.call(
        "HEAD " + uri(source),
        attempt -> {
          try {
            return s3.headObject(r -> r.bucket(bucket).key(source).applyMutation(write::headObject))
                .contentLength();
          } catch (S3Exception e) {
            if (e.statusCode() == 404) {
              throw missing(source);
            }
            throw e;
          }
        });
  }

  private void copyInParts(String source, String target, long size) throws IOException {
    long part = Math.max(partBytes, (size + MAX_PARTS - 1) / MAX_PARTS);
    String id =
        retries
            .call(
                "CREATE UPLOAD " + uri(target),
                attempt ->
                    s3.createMultipartUpload(
                        r ->
                            r.bucket(bucket)
                                .key(target)
                                .applyMutation(write::createMultipartUpload)))
            .uploadId();
    try {
      List<CompletedPart> parts = new ArrayList<>();
      for (long from = 0; from < size; from += part) {
        int number = parts.size() + 1;
        String range = "bytes=" + from + "-" + (Math.min(size, from + part) - 1);
        UploadPartCopyResponse response =
            retries.call(
                "COPY part " + number + " of " + uri(source) + " to " + uri(target),
                attempt ->
                    s3.uploadPartCopy(
                        r ->
                            r.sourceBucket(bucket)
                                .sourceKey(source)
                                .destinationBucket(bucket)
                                .destinationKey(target)
                                .uploadId(id)
                                .partNumber(number)
                                .copySourceRange(range)
                                .applyMutation(write::uploadPartCopy)));
        parts.add(
            CompletedPart.builder()
                .partNumber(number)
                .eTag(response.copyPartResult().eTag())
                .build());
      }
      retries.call(
          "COMPLETE UPLOAD " + uri(target),
          attempt ->
              s3.completeMultipartUpload(
                  r ->
                      r.bucket(bucket)
                          .key(target)
                          .uploadId(id)
                          .multipartUpload(u -> u.parts(parts))
                          .applyMutation(write::completeMultipartUpload)));
    } catch (IOException | RuntimeException e) {
      S3Upload.abort(s3, bucket, target, id, retries);
      throw e;
    }
  }

  private NoSuchFileException missing(String objectKey) {
    return new NoSuchFileException(uri(objectKey));
  }

  private String uri(String objectKey) {
    return S3Location.SCHEME + bucket + "/" + objectKey;
  }
}
