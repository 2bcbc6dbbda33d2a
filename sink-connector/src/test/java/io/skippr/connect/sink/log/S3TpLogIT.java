package io.skippr.connect.sink.log;

import io.skippr.connect.sink.storage.LakeStorage;
import io.skippr.connect.sink.storage.S3LakeStorage;
import io.skippr.connect.sink.storage.S3Lakes;
import io.skippr.connect.testkit.S3MockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The TP log's tests (linear sequence, fencing: an older epoch can never append after a newer
 * claim, checkpoints, failed appends) on S3, where create-if-absent is a conditional PUT.
 */
@ExtendWith(S3MockServer.Shared.class)
class S3TpLogIT extends TpLogTest {
  private final S3MockServer server;
  private S3LakeStorage lake;

  S3TpLogIT(S3MockServer server) {
    this.server = server;
  }

  @BeforeEach
  void freshLake() {
    lake = S3Lakes.open(server.endpoint(), S3Lakes.fresh(server, "lake-log"));
  }

  @AfterEach
  void closeLake() {
    lake.close();
  }

  @Override
  LakeStorage storage() {
    return lake;
  }
}
