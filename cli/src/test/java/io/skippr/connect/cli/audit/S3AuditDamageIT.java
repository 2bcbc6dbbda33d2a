package io.skippr.connect.cli.audit;

import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.S3Config;
import io.skippr.connect.lake.storage.S3LakeStorage;
import io.skippr.connect.lake.storage.S3Location;
import io.skippr.connect.testkit.S3MockServer;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link AuditDamageTest}'s damaged lakes on S3, audited through {@code s3://} URLs. */
@ExtendWith(S3MockServer.Shared.class)
class S3AuditDamageIT extends AuditDamageTest {
  private static final String BUCKET = "audit-damage";
  private static final AtomicInteger LAKES = new AtomicInteger();

  private final S3MockServer server;
  private final S3Location location;
  private final S3LakeStorage lake;

  S3AuditDamageIT(S3MockServer server) {
    this.server = server;
    server.createBucket(BUCKET);
    this.location = new S3Location(BUCKET, "lake-" + LAKES.incrementAndGet());
    this.lake =
        S3LakeStorage.open(
            location,
            S3Config.forEndpoint(
                server.endpoint(), S3MockServer.ACCESS_KEY, S3MockServer.SECRET_KEY));
  }

  @AfterEach
  void closeLake() {
    lake.close();
  }

  @Override
  LakeStorage storage() {
    return lake;
  }

  @Override
  List<String> lakeArgs() {
    return List.of(
        "--topics-dir",
        "s3://" + BUCKET + "/" + location.prefix(),
        "--lake",
        "s3.endpoint=" + server.endpoint(),
        "--lake",
        "s3.path.style.access=true",
        "--lake",
        "s3.region=us-east-1",
        "--lake",
        "aws.access.key.id=" + S3MockServer.ACCESS_KEY,
        "--lake",
        "aws.secret.access.key=" + S3MockServer.SECRET_KEY);
  }
}
