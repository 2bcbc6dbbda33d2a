package io.skippr.connect.lake.storage;

import io.skippr.connect.aws.AwsClients;
import io.skippr.connect.aws.AwsRetries;
import io.skippr.connect.testkit.S3MockServer;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** S3 lakes for tests: each under a fresh prefix of a bucket on an S3-compatible server. */
public final class S3Lakes {
  private static final AtomicInteger LAKES = new AtomicInteger();

  private S3Lakes() {}

  /**
   * A fresh S3 lake for each test of a class that registers it (as a {@code RegisterExtension}).
   */
  public static final class PerTest implements BeforeEachCallback, AfterEachCallback {
    private final S3MockServer server;
    private final String bucket;
    private S3LakeStorage lake;

    public PerTest(S3MockServer server, String bucket) {
      this.server = server;
      this.bucket = bucket;
    }

    /** The current test's lake. */
    public S3LakeStorage storage() {
      return lake;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
      lake = open(server.endpoint(), fresh(server, bucket));
    }

    @Override
    public void afterEach(ExtensionContext context) {
      lake.close();
    }
  }

  /** A fresh location in {@code bucket} (created if needed). */
  public static S3Location fresh(S3MockServer server, String bucket) {
    server.createBucket(bucket);
    return new S3Location(bucket, "lake-" + LAKES.incrementAndGet());
  }

  /** Opens a lake at {@code location} on the server at {@code endpoint}, as a connector would. */
  public static S3LakeStorage open(URI endpoint, S3Location location) {
    return S3LakeStorage.open(location, config(endpoint));
  }

  /**
   * Opens a lake whose requests time out after {@code socketTimeout} and are tried {@code attempts}
   * times, 5 ms apart at first: for talking through a faulty network.
   */
  public static S3LakeStorage open(
      URI endpoint, S3Location location, Duration socketTimeout, int attempts) {
    S3Config config = config(endpoint);
    return new S3LakeStorage(
        AwsClients.s3(config.aws(), socketTimeout),
        location,
        config.partSize(),
        new AwsRetries(S3Config.retryPolicy(attempts, 5)),
        true);
  }

  static S3Config config(URI endpoint) {
    return S3Config.forEndpoint(endpoint, S3MockServer.ACCESS_KEY, S3MockServer.SECRET_KEY)
        .withPartSize(S3Config.MIN_PART_SIZE)
        .withRetries(3, 10);
  }
}
