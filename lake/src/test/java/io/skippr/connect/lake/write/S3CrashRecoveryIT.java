package io.skippr.connect.lake.write;

import io.skippr.connect.lake.storage.S3LakeStorage;
import io.skippr.connect.lake.storage.S3Lakes;
import io.skippr.connect.testkit.S3MockServer;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link CrashRecoveryTest}'s crashes at every step of the commit protocol, on S3: after each crash
 * a fresh writer resumes, and in the end the bucket holds every offset exactly once and no
 * unfinished upload.
 */
@ExtendWith(S3MockServer.Shared.class)
class S3CrashRecoveryIT {
  private final S3MockServer server;

  S3CrashRecoveryIT(S3MockServer server) {
    this.server = server;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.skippr.connect.lake.write.CrashRecoveryTest#faults")
  void everyOffsetLandsExactlyOnceDespiteACrash(CrashRecoveryTest.Fault fault) throws Exception {
    try (S3LakeStorage lake =
        S3Lakes.open(server.endpoint(), S3Lakes.fresh(server, "lake-crash"))) {
      CrashRecoveryTest.assertEveryOffsetOnceDespite(fault, lake);
    }
  }
}
