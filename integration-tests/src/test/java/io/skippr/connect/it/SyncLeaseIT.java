package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.DynaliteServer;
import io.skippr.connect.testkit.S3MockServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One runner per pipeline: while a {@code skippr sync} runs, a second one waits (naming the holder)
 * or, with {@code --no-wait}, refuses in one line; it takes over once the first stopped. Through
 * the lease in DynamoDB (as on two hosts), and through RocksDB's one-process lock on one host.
 */
class SyncLeaseIT {
  @TempDir Path dir;

  @Test
  void aSecondRunWaitsForTheLeaseInDynamoDbAndTakesOverAfterTheFirstStops() throws Exception {
    try (DynaliteServer dynalite = DynaliteServer.start()) {
      Map<String, Object> store =
          Map.of(
              "store.type", "dynamodb",
              "store.name", "skippr-sync",
              "store.dynamodb.endpoint", dynalite.endpoint().toString(),
              "store.dynamodb.region", "us-east-1",
              "store.dynamodb.create.table", true);
      SyncCli cli =
          new SyncCli(
              dir,
              Map.of(
                  "AWS_ACCESS_KEY_ID", S3MockServer.ACCESS_KEY,
                  "AWS_SECRET_ACCESS_KEY", S3MockServer.SECRET_KEY,
                  "AWS_REGION", "us-east-1"));
      assertOneRunAtATime(cli, store, "is being run by skippr sync (pid ");
    }
  }

  @Test
  void aSecondRunOnTheSameHostWaitsForTheRocksDbStore() throws Exception {
    assertOneRunAtATime(new SyncCli(dir, Map.of()), Map.of(), "is in use by another process (pid ");
  }

  private void assertOneRunAtATime(SyncCli cli, Map<String, Object> store, String refusal)
      throws Exception {
    Path inbox = dir.resolve("inbox");
    Path lake = dir.resolve("lake");
    cli.pipeline("orders", SyncFiles.pipeline(inbox, lake.toString(), store));
    SyncFiles.write(inbox, "a.ndjson", 0, 1_000);

    CliProcess first = cli.startSync("orders"); // no --once: runs until SIGTERM
    Await.until(
        Duration.ofMinutes(2),
        () -> "the first run's commits:\n" + first.output(),
        () -> first.stdout().contains("\"unit_committed\""));
    CliProcess second = cli.startSync("orders", "--once");
    Await.until(
        Duration.ofMinutes(1),
        () -> "the second run waiting:\n" + second.output(),
        () -> second.stdout().contains("\"sync_waiting\""));
    assertThat(second.stdout()).contains("pid " + first.pid());

    SyncCli.Result refused = cli.once("orders", "--no-wait");
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.event("sync_failed").path("reason").asText())
        .contains(refusal + first.pid());
    assertThat(second.isAlive()).as("still waiting").isTrue();

    SyncFiles.write(inbox, "b.ndjson", 1_000, 1_500);
    first.signal("TERM");
    assertThat(first.awaitExit(Duration.ofMinutes(1)))
        .as("SIGTERM ends the run through the JVM's shutdown")
        .isEqualTo(143);
    SyncCli.Result stopped = SyncCli.result(first, 143);
    assertThat(stopped.event("sync_complete").path("reason").asText()).isEqualTo("stopped");

    int exit = second.awaitExit(Duration.ofMinutes(2));
    SyncCli.Result tookOver = SyncCli.result(second, exit);
    assertThat(exit).as(second.output()).isZero();
    assertThat(tookOver.event("sync_complete").path("records").asLong())
        .as("the second run reads what the first did not")
        .isEqualTo(1_500 - stopped.event("sync_complete").path("records").asLong());
    SyncFileLakeIT.assertExactlyOnce(lake, 1_500);
  }
}
