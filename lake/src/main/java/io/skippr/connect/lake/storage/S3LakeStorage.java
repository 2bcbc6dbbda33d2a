package io.skippr.connect.lake.storage;

import io.skippr.connect.aws.AwsClients;
import io.skippr.connect.aws.AwsRetries;
import io.skippr.connect.aws.S3WriteOptions;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A lake in an S3 bucket under a key prefix.
 *
 * <p>Log entries are created with {@code PutObject} + {@code If-None-Match: *}, so of concurrent
 * creators exactly one gets 200 and the others 412. Files are streamed into multipart uploads (see
 * {@link S3Upload}) and become visible only when the upload completes; unfinished writes are
 * incomplete multipart uploads, listed and aborted through {@link #listIncomplete} and {@link
 * #discardIncomplete}. Every request is retried on transient failures ({@link AwsRetries}).
 */
public final class S3LakeStorage implements LakeStorage {
  private static final Logger LOG = LoggerFactory.getLogger(S3LakeStorage.class);
  private static final int MAX_PAGE = 1000;

  private final S3Client s3;
  private final S3Location location;
  private final int partSize;
  private final AwsRetries retries;
  private final boolean ownsClient;
  private int pageSize = MAX_PAGE;
  private long singleCopyLimit = S3Copy.SINGLE_COPY_LIMIT;
  private S3WriteOptions write = S3WriteOptions.NONE;

  S3LakeStorage(
      S3Client s3, S3Location location, int partSize, AwsRetries retries, boolean ownsClient) {
    this.s3 = s3;
    this.location = location;
    this.partSize = partSize;
    this.retries = retries;
    this.ownsClient = ownsClient;
  }

  /** Opens a lake at {@code location}, building a client from {@code config}. */
  public static S3LakeStorage open(S3Location location, S3Config config) {
    LOG.info("Lake storage {} ({})", location, config);
    S3Client client;
    try {
      client = AwsClients.s3(config.aws(), AwsClients.SOCKET_TIMEOUT);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(S3Config.REGION, "", e.getMessage() + ": set " + S3Config.REGION);
    }
    S3WriteOptions write = config.writeOptions();
    return new S3LakeStorage(
            client,
            location,
            config.partSize(),
            new AwsRetries(config.aws().retry()).withAdvice(write::advice),
            true)
        .writeOptions(write);
  }

  /** Sends encryption and ACL settings with every request that needs them. */
  S3LakeStorage writeOptions(S3WriteOptions options) {
    this.write = options;
    return this;
  }

  /** Lists in pages of {@code size} keys (S3's largest is 1000); smaller pages test paging. */
  S3LakeStorage pageSize(int size) {
    this.pageSize = Math.max(1, Math.min(MAX_PAGE, size));
    return this;
  }

  /** Copies objects above {@code bytes} in parts (S3 allows one copy of up to 5 GiB). */
  S3LakeStorage singleCopyLimit(long bytes) {
    this.singleCopyLimit = bytes;
    return this;
  }

  public S3Location s3Location() {
    return location;
  }

  /**
   * {@inheritDoc}
   *
   * <p>When an attempt failed without an answer (it may have taken effect) and the retry finds an
   * object of identical content, this call counts as its creator: the log protocol writes content
   * only one writer can produce (its own epoch), so identical content means an earlier attempt of
   * this call.
   */
  @Override
  public boolean createIfAbsent(String key, byte[] content) throws IOException {
    String objectKey = objectKey(key);
    return retries.call(
        "PUT (if absent) " + uri(objectKey),
        attempt -> {
          try {
            s3.putObject(
                r ->
                    r.bucket(location.bucket())
                        .key(objectKey)
                        .ifNoneMatch("*")
                        .applyMutation(write::putObject),
                RequestBody.fromBytes(content));
            return true;
          } catch (S3Exception e) {
            if (e.statusCode() == 412) {
              return attempt > 1 && Arrays.equals(read(key), content);
            }
            if (e.statusCode() == 409 && attempt >= retries.policy().maxAttempts()) {
              return false; // a concurrent conditional write kept winning
            }
            throw e;
          }
        });
  }

  @Override
  public PendingObject create(String key) {
    return new S3Upload(
            s3, location.bucket(), key, objectKey(key), partSize, retries, this::abortUploads)
        .writeOptions(write);
  }

  @Override
  public byte[] read(String key) throws IOException {
    String objectKey = objectKey(key);
    return retries.call(
        "GET " + uri(objectKey),
        attempt -> {
          try {
            return s3.getObjectAsBytes(
                    r -> r.bucket(location.bucket()).key(objectKey).applyMutation(write::getObject))
                .asByteArray();
          } catch (S3Exception e) {
            if (e.statusCode() == 404) {
              throw new NoSuchFileException(uri(objectKey));
            }
            throw e;
          }
        });
  }

  @Override
  public List<String> list(String prefix) throws IOException {
    String objectPrefix = objectPrefix(prefix);
    List<String> keys = new ArrayList<>();
    String token = null;
    do {
      String page = token;
      ListObjectsV2Response response =
          retries.call(
              "LIST " + uri(objectPrefix),
              attempt ->
                  s3.listObjectsV2(
                      r ->
                          r.bucket(location.bucket())
                              .prefix(objectPrefix)
                              .maxKeys(pageSize)
                              .continuationToken(page)));
      for (S3Object object : response.contents()) {
        keys.add(lakeKey(object.key()));
      }
      token = Boolean.TRUE.equals(response.isTruncated()) ? response.nextContinuationToken() : null;
    } while (token != null);
    keys.sort(null);
    return keys;
  }

  @Override
  public List<String> listIncomplete(String prefix) throws IOException {
    TreeSet<String> keys = new TreeSet<>();
    for (MultipartUpload upload : uploads(objectPrefix(prefix))) {
      keys.add(lakeKey(upload.key()));
    }
    return new ArrayList<>(keys);
  }

  @Override
  public void discardIncomplete(String key) throws IOException {
    abortUploads(objectKey(key));
  }

  private void abortUploads(String objectKey) throws IOException {
    for (MultipartUpload upload : uploads(objectKey)) {
      if (upload.key().equals(objectKey)) {
        S3Upload.abort(s3, location.bucket(), objectKey, upload.uploadId(), retries);
      }
    }
  }

  @Override
  public void delete(String key) throws IOException {
    String objectKey = objectKey(key);
    retries.call(
        "DELETE " + uri(objectKey),
        attempt -> s3.deleteObject(r -> r.bucket(location.bucket()).key(objectKey)));
  }

  /** Deletes in batches of up to 1000 keys per {@code DeleteObjects} request. */
  @Override
  public void deleteAll(Collection<String> keys) throws IOException {
    List<ObjectIdentifier> batch = new ArrayList<>();
    for (String key : keys) {
      batch.add(ObjectIdentifier.builder().key(objectKey(key)).build());
      if (batch.size() == MAX_PAGE) {
        deleteBatch(batch);
        batch = new ArrayList<>();
      }
    }
    if (!batch.isEmpty()) {
      deleteBatch(batch);
    }
  }

  /** S3 has no rename: a copy made by S3 itself, then a delete of the source. */
  @Override
  public void move(String from, String to) throws IOException {
    new S3Copy(s3, location.bucket(), retries, singleCopyLimit, partSize)
        .writeOptions(write)
        .copy(objectKey(from), objectKey(to));
    delete(from);
  }

  @Override
  public boolean exists(String key) throws IOException {
    String objectKey = objectKey(key);
    return retries.call(
        "HEAD " + uri(objectKey),
        attempt -> {
          try {
            s3.headObject(
                r -> r.bucket(location.bucket()).key(objectKey).applyMutation(write::headObject));
            return true;
          } catch (S3Exception e) {
            if (e.statusCode() == 404) {
              return false;
            }
            throw e;
          }
        });
  }

  @Override
  public String location() {
    return location.toString();
  }

  @Override
  public void close() {
    if (ownsClient) {
      s3.close();
    }
  }

  private void deleteBatch(List<ObjectIdentifier> batch) throws IOException {
    Delete delete = Delete.builder().objects(batch).quiet(true).build();
    DeleteObjectsResponse response =
        retries.call(
            "DELETE " + batch.size() + " object(s) under " + location,
            attempt -> s3.deleteObjects(r -> r.bucket(location.bucket()).delete(delete)));
    if (response.hasErrors() && !response.errors().isEmpty()) {
      var first = response.errors().get(0);
      throw new IOException(
          "DELETE of "
              + response.errors().size()
              + " object(s) under "
              + location
              + " failed; first: "
              + uri(first.key())
              + ": "
              + first.code()
              + " "
              + first.message());
    }
  }

  private List<MultipartUpload> uploads(String objectPrefix) throws IOException {
    List<MultipartUpload> uploads = new ArrayList<>();
    String keyMarker = null;
    String uploadIdMarker = null;
    while (true) {
      String key = keyMarker;
      String id = uploadIdMarker;
      ListMultipartUploadsResponse response =
          retries.call(
              "LIST UPLOADS " + uri(objectPrefix),
              attempt ->
                  s3.listMultipartUploads(
                      r ->
                          r.bucket(location.bucket())
                              .prefix(objectPrefix)
                              .maxUploads(pageSize)
                              .keyMarker(key)
                              .uploadIdMarker(id)));
      uploads.addAll(response.uploads());
      if (!Boolean.TRUE.equals(response.isTruncated())) {
        return uploads;
      }
      keyMarker = response.nextKeyMarker();
      uploadIdMarker = response.nextUploadIdMarker();
    }
  }

  private String objectKey(String key) {
    return location.objectKey(StorageKeys.check(key));
  }

  /** The prefix of every object key in this lake, then {@code prefix}. */
  private String objectPrefix(String prefix) {
    return location.prefix().isEmpty() ? prefix : location.prefix() + "/" + prefix;
  }

  private String lakeKey(String objectKey) {
    return location.prefix().isEmpty()
        ? objectKey
        : objectKey.substring(location.prefix().length() + 1);
  }

  private String uri(String objectKey) {
    return S3Location.SCHEME + location.bucket() + "/" + objectKey;
  }
}
