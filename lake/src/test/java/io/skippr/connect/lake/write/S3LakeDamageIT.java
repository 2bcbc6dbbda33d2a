package io.skippr.connect.lake.write;

import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.S3Lakes;
import io.skippr.connect.testkit.S3MockServer;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link LakeDamageTest}'s damaged lakes on S3: each refused with nothing changed, an orphan
 * deleted where the TP's log knows its table.
 */
@ExtendWith(S3MockServer.Shared.class)
class S3LakeDamageIT extends LakeDamageTest {
  @RegisterExtension final S3Lakes.PerTest lake;

  S3LakeDamageIT(S3MockServer server) {
    this.lake = new S3Lakes.PerTest(server, "lake-damage");
  }

  @Override
  LakeStorage storage() {
    return lake.storage();
  }
}
