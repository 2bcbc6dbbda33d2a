package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.DuckDbLake;
import io.skippr.connect.testkit.DynaliteServer;
import io.skippr.connect.testkit.S3MockServer;
import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skippr sync --once} of the HTTP poll source against the fixture API (two endpoints, token
 * and Link-header pagination, a 429 and a 503 on the way): into a local lake with RocksDB, and into
 * S3Mock with dynalite. A second run after new items fetches only those; DuckDB finds every item
 * once per endpoint.
 */
@ExtendWith(S3MockServer.Shared.class)
class SyncPollLakeIT {
  @TempDir Path dir;

  @Test
  void pollsIntoALocalLakeAndResumesFromTheCursor() throws Exception {
    try (PollFixtureApi api = PollFixtureApi.start(7)) {
      SyncCli cli = new SyncCli(dir, Map.of());
      Path lake = dir.resolve("lake");
      cli.pipeline("api", pipeline(api, lake.toString(), Map.of()));
      assertTwoRunsLandEveryItemOnce(api, cli, () -> lake);
    }
  }

  @Test
  void keepsItsStateInDynaliteAndItsLakeInS3(S3MockServer s3) throws Exception {
    s3.createBucket("poll-lake");
    try (PollFixtureApi api = PollFixtureApi.start(7);
        DynaliteServer dynalite = DynaliteServer.start()) {
      SyncCli cli =
          new SyncCli(
              dir,
              Map.of(
                  "AWS_ACCESS_KEY_ID", S3MockServer.ACCESS_KEY,
                  "AWS_SECRET_ACCESS_KEY", S3MockServer.SECRET_KEY,
                  "AWS_REGION", "us-east-1"));
      Map<String, Object> remote =
          Map.of(
              "s3.endpoint",
              s3.endpoint().toString(),
              "s3.path.style.access",
              true,
              "store.type",
              "dynamodb",
              "store.name",
              "skippr-poll",
              "store.dynamodb.endpoint",
              dynalite.endpoint().toString(),
              "store.dynamodb.region",
              "us-east-1",
              "store.dynamodb.create.table",
              true);
      cli.pipeline("api", pipeline(api, "s3://poll-lake/lake", remote));
      Path local = dir.resolve("downloaded");
      assertTwoRunsLandEveryItemOnce(
          api,
          cli,
          () -> {
            s3.download("poll-lake", "lake/", local);
            return local;
          });
    }
  }

  interface LakeCopy {
    Path get();
  }

  private static void assertTwoRunsLandEveryItemOnce(PollFixtureApi api, SyncCli cli, LakeCopy lake)
      throws Exception {
    api.add(95);
    api.failNext(1, 429, "1");
    api.failNext(1, 503, null);
    SyncCli.Result first = cli.once("api");
    assertThat(first.exit()).as(first.output()).isZero();
    assertThat(first.event("sync_complete").path("records").asLong()).isEqualTo(2 * 95);

    List<Long> added = api.add(23);
    SyncCli.Result second = cli.once("api");
    assertThat(second.exit()).as(second.output()).isZero();
    assertThat(second.event("sync_complete").path("records").asLong())
        .as("only the new items, from the cursor on")
        .isEqualTo(2 * added.size());

    Path copy = lake.get();
    try (DuckDbLake duck = new DuckDbLake(copy)) {
      for (String table : List.of("poll.orders", "poll.invoices")) {
        assertThat(PollLake.idCounts(duck, table))
            .as("%s after:\n%s", table, second.output())
            .isEqualTo(PollLake.once(api.items().ids()));
      }
    }
  }

  private static Map<String, Object> pipeline(
      PollFixtureApi api, String lake, Map<String, Object> lakeExtra) {
    Map<String, String> source =
        new LinkedHashMap<>(PollLake.pollConfig(api, "poll.", Path.of("unused"), Map.of()));
    source.keySet().removeIf(key -> key.contains("converter") || key.startsWith("topic.creation"));
    source.remove("connector.class");
    source.remove("store.rocksdb.path"); // the run's data directory
    Map<String, Object> lakeConfig = new LinkedHashMap<>();
    lakeConfig.put("topics.dir", lake);
    lakeConfig.put("flush.size", 40);
    lakeConfig.putAll(lakeExtra);
    Map<String, Object> pipeline = new LinkedHashMap<>();
    pipeline.put("source", Map.of("class", PollLake.POLL_CLASS, "config", source));
    pipeline.put("lake", Map.of("config", lakeConfig));
    pipeline.put("sync", Map.of("idle.ms", 4000));
    return pipeline;
  }
}
