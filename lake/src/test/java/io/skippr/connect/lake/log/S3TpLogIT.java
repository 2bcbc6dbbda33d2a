package io.skippr.connect.lake.log;

import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.S3Lakes;
import io.skippr.connect.testkit.S3MockServer;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The TP log's tests (linear sequence, fencing: an older epoch can never append after a newer
 * claim, checkpoints, failed appends) on S3, where create-if-absent is a conditional PUT.
 */
@ExtendWith(S3MockServer.Shared.class)
class S3TpLogIT extends TpLogTest {
  @RegisterExtension final S3Lakes.PerTest lake;

  S3TpLogIT(S3MockServer server) {
    this.lake = new S3Lakes.PerTest(server, "lake-log");
  }

  @Override
  LakeStorage storage() {
    return lake.storage();
  }
}
