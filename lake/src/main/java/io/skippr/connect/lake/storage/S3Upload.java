package io.skippr.connect.lake.storage;

import io.skippr.connect.aws.AwsRetries;
import io.skippr.connect.aws.S3WriteOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * An object streamed to S3 in parts of a fixed size: the bytes written are buffered up to one part;
 * a full part is uploaded (starting a multipart upload with the first) before more bytes are taken.
 * An object smaller than one part is sent with a single PUT on {@link #complete()}. So at most one
 * part is held in memory, and nothing is visible until the PUT or {@code CompleteMultipartUpload}
 * returns. Failing or closing without completing aborts the multipart upload.
 */
final class S3Upload implements PendingObject {
  private static final Logger LOG = LoggerFactory.getLogger(S3Upload.class);
  private static final int INITIAL_BUFFER = 64 << 10;
  private static final String CONTENT_TYPE = "application/octet-stream";
  private static final int START_ROUNDS = 3;

  private final S3Client s3;
  private final String bucket;
  private final String key;
  private final String objectKey;
  private final int partSize;
  private final AwsRetries retries;
  private final List<CompletedPart> parts = new ArrayList<>();
  private final OutputStream stream = new PartStream();
  private byte[] buffer = new byte[0];
  private int count;
  private final UploadsOfKey uploadsOfKey;
  private String uploadId;
  private boolean finished;
  private S3WriteOptions write = S3WriteOptions.NONE;

  /** Aborts every multipart upload of an object key. */
  @FunctionalInterface
  interface UploadsOfKey {
    void abortAll(String objectKey) throws IOException;
  }

  S3Upload(
      S3Client s3,
      String bucket,
      String key,
      String objectKey,
      int partSize,
      AwsRetries retries,
      UploadsOfKey uploadsOfKey) {
    this.s3 = s3;
    this.bucket = bucket;
    this.key = key;
    this.objectKey = objectKey;
    this.partSize = partSize;
    this.retries = retries;
    this.uploadsOfKey = uploadsOfKey;
  }

  /** Sends encryption and ACL settings with the requests that need them. */
  S3Upload writeOptions(S3WriteOptions options) {
    this.write = options;
    return this;
  }

  @Override
  public String key() {
    return key;
  }

  @Override
  public OutputStream stream() {
    return stream;
  }

  @Override
  public void complete() throws IOException {
    if (finished) {
      throw new IllegalStateException("object already finished: " + key);
    }
    try {
      if (uploadId == null) {
        putWhole();
      } else {
        if (count > 0) {
          uploadPart();
        }
        completeUpload();
      }
      finished = true;
      buffer = null;
    } catch (IOException | RuntimeException e) {
      abort();
      throw e;
    }
  }

  @Override
  public void abort() {
    if (finished) {
      return;
    }
    finished = true;
    buffer = null;
    if (uploadId == null) {
      return;
    }
    try {
      abort(s3, bucket, objectKey, uploadId, retries);
    } catch (IOException e) {
      LOG.warn(
          "Could not abort the upload of {}; the incomplete upload is discarded when its topic"
              + " partition is opened again: {}",
          uri(),
          e.getMessage());
    }
  }

  /** Aborts a multipart upload; one that is gone already is not an error. */
  static void abort(S3Client s3, String bucket, String objectKey, String id, AwsRetries retries)
      throws IOException {
    retries.call(
        "ABORT UPLOAD s3://" + bucket + "/" + objectKey,
        attempt -> {
          try {
            s3.abortMultipartUpload(r -> r.bucket(bucket).key(objectKey).uploadId(id));
          } catch (S3Exception e) {
            if (e.statusCode() != 404) {
              throw e;
            }
          }
          return null;
        });
  }

  private void putWhole() throws IOException {
    byte[] data = buffer;
    int length = count;
    retries.call(
        "PUT " + uri(),
        attempt ->
            s3.putObject(
                r ->
                    r.bucket(bucket)
                        .key(objectKey)
                        .contentLength((long) length)
                        .applyMutation(write::putObject),
                body(data, length)));
  }

  /**
   * Starts the multipart upload. When a start attempt failed without an answer, it may have created
   * an upload nobody would finish: then every upload of the key is aborted (ours included, before
   * any part is in it) and the start is tried anew. Only a fenced writer or such strays upload a
   * unit's file beside its owner. Aborting them all, rather than all but ours, also suits servers
   * (S3Mock) whose abort discards everything stored under the key.
   */
  private void startUpload() throws IOException {
    for (int round = 1; ; round++) {
      boolean[] ambiguous = {false};
      String id =
          retries
              .call(
                  "CREATE UPLOAD " + uri(),
                  attempt -> {
                    ambiguous[0] |= attempt > 1;
                    return s3.createMultipartUpload(
                        r ->
                            r.bucket(bucket)
                                .key(objectKey)
                                .contentType(CONTENT_TYPE)
                                .checksumAlgorithm(ChecksumAlgorithm.CRC32)
                                .applyMutation(write::createMultipartUpload));
                  })
              .uploadId();
      if (!ambiguous[0] || round == START_ROUNDS) {
        uploadId = id;
        return;
      }
      uploadsOfKey.abortAll(objectKey);
    }
  }

  private void uploadPart() throws IOException {
    int number = parts.size() + 1;
    byte[] data = buffer;
    int length = count;
    UploadPartResponse response =
        retries.call(
            "PUT part " + number + " of " + uri(),
            attempt ->
                s3.uploadPart(
                    r ->
                        r.bucket(bucket)
                            .key(objectKey)
                            .uploadId(uploadId)
                            .partNumber(number)
                            .contentLength((long) length)
                            .checksumAlgorithm(ChecksumAlgorithm.CRC32)
                            .applyMutation(write::uploadPart),
                    body(data, length)));
    parts.add(
        CompletedPart.builder()
            .partNumber(number)
            .eTag(response.eTag())
            .checksumCRC32(response.checksumCRC32())
            .build());
    count = 0;
  }

  /**
   * Completes the upload. When an attempt failed without an answer and the retry finds the upload
   * gone, the earlier attempt may have completed it: the object's ETag, derived from the parts'
   * ETags, tells.
   */
  private void completeUpload() throws IOException {
    retries.call(
        "COMPLETE UPLOAD " + uri(),
        attempt -> {
          try {
            s3.completeMultipartUpload(
                r ->
                    r.bucket(bucket)
                        .key(objectKey)
                        .uploadId(uploadId)
                        .multipartUpload(u -> u.parts(parts))
                        .applyMutation(write::completeMultipartUpload));
          } catch (S3Exception e) {
            if (e.statusCode() != 404 || attempt == 1 || !completedEarlier()) {
              throw e;
            }
          }
          return null;
        });
  }

  private boolean completedEarlier() throws IOException {
    String expected = multipartEtag(parts);
    return retries.call(
        "HEAD " + uri(),
        attempt -> {
          try {
            String etag =
                s3.headObject(r -> r.bucket(bucket).key(objectKey).applyMutation(write::headObject))
                    .eTag();
            return expected != null && expected.equals(unquote(etag));
          } catch (S3Exception e) {
            if (e.statusCode() == 404) {
              return false;
            }
            throw e;
          }
        });
  }

  /** S3's ETag of a multipart object: MD5 of the parts' binary MD5s, a dash, the part count. */
  static String multipartEtag(List<CompletedPart> parts) {
    try {
      MessageDigest md5 = MessageDigest.getInstance("MD5");
      for (CompletedPart part : parts) {
        String etag = unquote(part.eTag());
        if (etag == null || etag.length() != 32) {
          return null; // not an MD5 (e.g. SSE-KMS): cannot tell
        }
        md5.update(HexFormat.of().parseHex(etag));
      }
      return HexFormat.of().formatHex(md5.digest()) + "-" + parts.size();
    } catch (NoSuchAlgorithmException | IllegalArgumentException e) {
      return null;
    }
  }

  private static String unquote(String etag) {
    if (etag == null) {
      return null;
    }
    String trimmed = etag.trim();
    return trimmed.length() >= 2 && trimmed.startsWith("\"") && trimmed.endsWith("\"")
        ? trimmed.substring(1, trimmed.length() - 1)
        : trimmed;
  }

  /** A body over the buffer without copying it; the SDK may read it more than once. */
  private static RequestBody body(byte[] data, int length) {
    return RequestBody.fromContentProvider(
        () -> new ByteArrayInputStream(data, 0, length), length, CONTENT_TYPE);
  }

  private String uri() {
    return S3Location.SCHEME + bucket + "/" + objectKey;
  }

  /** Buffers up to one part; a full part goes out before more bytes are taken. */
  private final class PartStream extends OutputStream {
    @Override
    public void write(int b) throws IOException {
      makeRoom();
      ensureCapacity(count + 1);
      buffer[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      while (len > 0) {
        makeRoom();
        int n = Math.min(len, partSize - count);
        ensureCapacity(count + n);
        System.arraycopy(b, off, buffer, count, n);
        count += n;
        off += n;
        len -= n;
      }
    }

    /** Closing the stream does not finish the object; {@link #complete()} does. */
    @Override
    public void close() {}

    private void makeRoom() throws IOException {
      if (finished) {
        throw new IOException("object already finished or aborted: " + key);
      }
      if (count == partSize) {
        if (uploadId == null) {
          startUpload();
        }
        uploadPart();
      }
    }

    private void ensureCapacity(int needed) {
      if (needed > buffer.length) {
        int grown = Math.max(needed, Math.max(INITIAL_BUFFER, buffer.length * 2));
        buffer = Arrays.copyOf(buffer, Math.min(partSize, grown));
      }
    }
  }
}
