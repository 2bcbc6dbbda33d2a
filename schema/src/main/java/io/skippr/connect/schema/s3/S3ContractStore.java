package io.skippr.connect.schema.s3;

import io.skippr.connect.aws.AwsClients;
import io.skippr.connect.aws.AwsRetries;
import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.ContractDocument;
import io.skippr.connect.schema.ContractStorage;
import io.skippr.connect.schema.PipelineId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Contracts in an S3 bucket: {@code
 * s3://bucket/[prefix/]{tenant}/{workspace}/{pipeline}/metadata.json}.
 *
 * <p>A PUT replaces an object at once, so readers never see a partial document. {@link #put} reads
 * the document with its ETag and writes it back with {@code If-Match} (or {@code If-None-Match: *}
 * when there was none): when another writer got in between, S3 answers 412 and the put starts over
 * from a fresh read, so concurrent puts of different namespaces all survive.
 */
public final class S3ContractStore implements ContractStorage {
  /** Attempts of a {@link #put} that keeps losing to concurrent writers. */
  static final int PUT_ATTEMPTS = 20;

  /** Attempts of a read whose body keeps failing its checksum. */
  static final int READ_ATTEMPTS = 10;

  private static final String JSON_TYPE = "application/json";
  private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(30);

  private final S3Client s3;
  private final String bucket;
  private final String prefix;
  private final String endpoint;
  private final boolean ownsClient;
  private final AwsRetries retries = new AwsRetries(S3ContractSettings.RETRY);

  /**
   * Over a client the caller keeps (and closes).
   *
   * @param prefix key prefix without leading or trailing {@code /}, empty for none
   */
  public S3ContractStore(S3Client s3, String bucket, String prefix) {
    this(s3, bucket, prefix, "the S3 endpoint", false);
  }

  private S3ContractStore(
      S3Client s3, String bucket, String prefix, String endpoint, boolean ownsClient) {
    this.s3 = s3;
    this.bucket = bucket;
    this.prefix = prefix;
    this.endpoint = endpoint;
    this.ownsClient = ownsClient;
  }

  /** Opens a store with a client of its own, closed by {@link #close}. */
  public static S3ContractStore open(S3ContractSettings settings) {
    S3Client client;
    try {
      client = AwsClients.s3(settings.aws(), SOCKET_TIMEOUT);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "no AWS region for "
              + settings.location()
              + ": set "
              + S3ContractSettings.REGION_ENV
              + " or AWS_REGION",
          e);
    }
    return new S3ContractStore(
        client,
        settings.bucket(),
        settings.prefix(),
        settings.aws().endpoint() == null ? "AWS S3" : settings.aws().endpoint().toString(),
        true);
  }

  /** The object key of the pipeline's document. */
  public String key(PipelineId id) {
    String key =
        id.tenant() + "/" + id.workspace() + "/" + id.pipeline() + "/" + ContractStorage.FILE_NAME;
    return prefix.isEmpty() ? key : prefix + "/" + key;
  }

  @Override
  public String location(PipelineId id) {
    return S3ContractSettings.SCHEME + bucket + "/" + key(id);
  }

  @Override
  public List<Contract> load(PipelineId id) {
    return read(id).map(object -> decode(object, id)).orElse(List.of());
  }

  @Override
  public void save(PipelineId id, Collection<Contract> contracts) {
    byte[] document = ContractDocument.encode(contracts);
    call("PUT", id, () -> s3.putObject(request(id).build(), RequestBody.fromBytes(document)));
  }

  @Override
  public void put(PipelineId id, Contract contract) {
    for (int attempt = 1; attempt <= PUT_ATTEMPTS; attempt++) {
      Optional<ResponseBytes<GetObjectResponse>> current = read(id);
      List<Contract> contracts = current.map(object -> decode(object, id)).orElse(List.of());
      byte[] document = ContractDocument.encode(ContractDocument.with(contracts, contract));
      PutObjectRequest.Builder request = request(id);
      if (current.isPresent()) {
        request.ifMatch(current.get().response().eTag());
      } else {
        request.ifNoneMatch("*");
      }
      try {
        call("PUT", id, () -> s3.putObject(request.build(), RequestBody.fromBytes(document)));
        return;
      } catch (ConditionFailed e) {
        pause(attempt);
      }
    }
    throw failure(
        "PUT " + location(id) + " lost to concurrent writers " + PUT_ATTEMPTS + " times", null);
  }

  @Override
  public void checkReachable(PipelineId id) {
    read(id);
  }

  @Override
  public void close() {
    if (ownsClient) {
      s3.close();
    }
  }

  /**
   * The document and its ETag, empty when there is none. The body is checked against the checksum
   * S3 keeps with the object; a body that does not match (damaged on the way, or a server that lets
   * a read overlap an overwrite) is read again.
   */
  private Optional<ResponseBytes<GetObjectResponse>> read(PipelineId id) {
    for (int attempt = 1; ; attempt++) {
      try {
        return call("GET", id, () -> get(id));
      } catch (TornRead e) {
        if (attempt == READ_ATTEMPTS) {
          throw failure(
              "GET "
                  + location(id)
                  + ": the content did not match its checksum "
                  + READ_ATTEMPTS
                  + " times",
              e);
        }
        pause(attempt);
      }
    }
  }

  private Optional<ResponseBytes<GetObjectResponse>> get(PipelineId id) {
    try {
      return Optional.of(
          s3.getObjectAsBytes(
              r -> r.bucket(bucket).key(key(id)).checksumMode(ChecksumMode.ENABLED)));
    } catch (S3Exception e) {
      if (e.statusCode() == 404 && !"NoSuchBucket".equals(errorCode(e))) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private List<Contract> decode(ResponseBytes<GetObjectResponse> object, PipelineId id) {
    return ContractDocument.decode(object.asByteArray(), location(id));
  }

  private PutObjectRequest.Builder request(PipelineId id) {
    return PutObjectRequest.builder().bucket(bucket).key(key(id)).contentType(JSON_TYPE);
  }

  /**
   * Runs a request, retrying transient failures, and turns the SDK's failures into one-line
   * messages naming bucket and key.
   */
  private <T> T call(String method, PipelineId id, Supplier<T> request) {
    String what = method + " " + location(id);
    try {
      return retries.call(what, attempt -> request.get());
    } catch (IOException e) {
      if (e.getCause() instanceof S3Exception s3e) {
        throw serviceFailure(method, what, s3e);
      }
      if (e.getCause() instanceof SdkClientException client) {
        if (checksumMismatch(client)) {
          throw new TornRead(client);
        }
        throw failure(
            what + ": cannot reach " + endpoint + ": " + firstLine(client.getMessage()), client);
      }
      throw failure(what + ": " + e.getMessage(), e);
    }
  }

  private RuntimeException serviceFailure(String method, String what, S3Exception e) {
    String code = errorCode(e);
    if (e.statusCode() == 412 || (e.statusCode() == 409 && "PUT".equals(method))) {
      return new ConditionFailed(e);
    }
    if ("NoSuchBucket".equals(code)) {
      return failure(what + ": bucket '" + bucket + "' does not exist", e);
    }
    if (e.statusCode() == 403) {
      return failure(
          what + ": access denied (" + code + "; check the credentials and the bucket policy)", e);
    }
    return failure(what + ": HTTP " + e.statusCode() + " " + code + " " + message(e), e);
  }

  private static String errorCode(S3Exception e) {
    return e.awsErrorDetails() == null ? "" : String.valueOf(e.awsErrorDetails().errorCode());
  }

  private static String message(S3Exception e) {
    return e.awsErrorDetails() == null
        ? firstLine(e.getMessage())
        : firstLine(e.awsErrorDetails().errorMessage());
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "";
    }
    int end = text.indexOf('\n');
    return (end < 0 ? text : text.substring(0, end)).strip();
  }

  private static UncheckedIOException failure(String message, Exception cause) {
    return new UncheckedIOException(message, new IOException(message, cause));
  }

  /** Waits a random while, longer with each attempt, so racing writers fall out of step. */
  private static void pause(int attempt) {
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(5, 10L + 20L * Math.min(attempt, 10)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while retrying a contract update", e);
    }
  }

  /** The SDK reports a checksum mismatch only in the message of a generic client exception. */
  private static boolean checksumMismatch(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null && t.getMessage().contains("different checksum than expected")) {
        return true;
      }
    }
    return false;
  }

  /** A body that did not match its checksum. */
  private static final class TornRead extends RuntimeException {
    TornRead(SdkClientException cause) {
      super(cause.getMessage(), cause, false, false);
    }
  }

  /** A conditional write found the object changed (412) or being changed (409). */
  private static final class ConditionFailed extends RuntimeException {
    ConditionFailed(S3Exception cause) {
      super(cause.getMessage(), cause, false, false);
    }
  }
}
