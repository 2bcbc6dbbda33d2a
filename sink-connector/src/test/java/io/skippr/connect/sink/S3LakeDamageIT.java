package io.skippr.connect.sink;

import io.skippr.connect.sink.storage.LakeStorage;
import io.skippr.connect.sink.storage.S3LakeStorage;
import io.skippr.connect.sink.storage.S3Lakes;
import io.skippr.connect.testkit.S3MockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link LakeDamageTest}'s damaged lakes on S3: each refused with nothing changed, an orphan
 * deleted where the TP's log knows its table.
 */
@ExtendWith(S3MockServer.Shared.class)
class S3LakeDamageIT extends LakeDamageTest {
  private final S3MockServer server;
  private S3LakeStorage lake;

  S3LakeDamageIT(S3MockServer server) {
    this.server = server;
  }

  @BeforeEach
  void freshLake() {
    lake = S3Lakes.open(server.endpoint(), S3Lakes.fresh(server, "lake-damage"));
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
