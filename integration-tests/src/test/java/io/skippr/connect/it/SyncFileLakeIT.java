package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.testkit.DynaliteServer;
import io.skippr.connect.testkit.S3MockServer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skippr sync --once} of the file source, without Kafka: into a local lake with the state in
 * RocksDB, and into S3Mock with the state in dynalite. Each run reads only what the one before did
 * not, DuckDB finds every record once, and {@code skippr state} shows and exports where it stands.
 */
@ExtendWith(S3MockServer.Shared.class)
class SyncFileLakeIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void runsIntoALocalLakeAndResumesWhereTheLastRunEnded() throws Exception {
    Path inbox = dir.resolve("inbox");
    Path lake = dir.resolve("lake");
    SyncCli cli = new SyncCli(dir, Map.of());
    cli.pipeline("orders", SyncFiles.pipeline(inbox, lake.toString(), Map.of()));
    SyncFiles.write(inbox, "a.ndjson", 0, 1_200);
    SyncFiles.write(inbox, "b.ndjson", 1_200, 2_000);

    SyncCli.Result first = cli.once("orders");
    assertThat(first.exit()).as(first.output()).isZero();
    assertThat(first.event("sync_complete").path("records").asLong()).isEqualTo(2_000);
    assertThat(first.count("unit_committed")).isGreaterThanOrEqualTo(4);
    assertExactlyOnce(lake, 2_000);

    SyncFiles.write(inbox, "c.ndjson", 2_000, 2_300);
    SyncCli.Result second = cli.once("orders");
    assertThat(second.exit()).as(second.output()).isZero();
    assertThat(second.event("sync_start").path("resumed_partitions").asInt()).isEqualTo(2);
    assertThat(second.event("sync_complete").path("records").asLong())
        .as("only the new file is read")
        .isEqualTo(300);
    assertExactlyOnce(lake, 2_300);
    assertThat(
            ManifestView.query(
                lake,
                "orders",
                "customer.address.city as city, items[1].qty::bigint as qty,"
                    + " epoch_ms(placed_at) as placed_ms",
                "where id = 1201"))
        .as("nested values survive, the timestamp string is a timestamp")
        .containsExactly(
            Map.of(
                "city",
                "city 4",
                "qty",
                2L,
                "placed_ms",
                Instant.parse("2026-11-26T10:15:30.123Z").toEpochMilli()));

    JsonNode exported = JSON.readTree(cli.state("export", "orders"));
    Map<String, Long> lines = new TreeMap<>();
    for (JsonNode item : exported.path("offsets")) {
      lines.put(
          item.path("offset").path("path").asText(), item.path("offset").path("line").asLong());
    }
    assertThat(lines)
        .as("KIP-875 body: every file at its last line")
        .isEqualTo(Map.of("a.ndjson", 1_200L, "b.ndjson", 800L, "c.ndjson", 300L));
    String shown = cli.state("show", "orders");
    assertThat(shown)
        .contains("source offsets of orders: 3")
        .contains("sync~orders/0", "sync~orders/1", "sync~orders/2")
        .contains("leases: 0");
  }

  @Test
  void keepsItsStateInDynaliteAndItsLakeInS3(S3MockServer s3) throws Exception {
    s3.createBucket("sync-lake");
    try (DynaliteServer dynalite = DynaliteServer.start()) {
      Path inbox = dir.resolve("inbox");
      SyncCli cli =
          new SyncCli(
              dir,
              Map.of(
                  "AWS_ACCESS_KEY_ID", S3MockServer.ACCESS_KEY,
                  "AWS_SECRET_ACCESS_KEY", S3MockServer.SECRET_KEY,
                  "AWS_REGION", "us-east-1"));
      Map<String, Object> lake =
          Map.of(
              "s3.endpoint",
              s3.endpoint().toString(),
              "s3.path.style.access",
              true,
              "store.type",
              "dynamodb",
              "store.name",
              "skippr-sync",
              "store.dynamodb.endpoint",
              dynalite.endpoint().toString(),
              "store.dynamodb.region",
              "us-east-1",
              "store.dynamodb.create.table",
              true);
      cli.pipeline("orders", SyncFiles.pipeline(inbox, "s3://sync-lake/lake", lake));
      SyncFiles.write(inbox, "a.ndjson", 0, 1_500);

      SyncCli.Result first = cli.once("orders");
      assertThat(first.exit()).as(first.output()).isZero();
      SyncFiles.write(inbox, "b.ndjson", 1_500, 1_800);
      SyncCli.Result second = cli.once("orders");
      assertThat(second.exit()).as(second.output()).isZero();
      assertThat(second.event("sync_complete").path("records").asLong()).isEqualTo(300);

      Path local = dir.resolve("downloaded");
      s3.download("sync-lake", "lake/", local);
      assertExactlyOnce(local, 1_800);
      assertThat(cli.state("show", "orders"))
          .contains("dynamodb")
          .contains("source offsets of orders: 2");
      assertThat(cli.dataDir().resolve("state")).as("no local state").doesNotExist();
    }
  }

  /** Ids 0 to n - 1, each exactly once. */
  static void assertExactlyOnce(Path lake, long n) {
    assertExactlyOnce(lake, n, "");
  }

  /**
   * Ids 0 to n - 1, each exactly once, read through the lake log (merged files' inputs may still
   * lie on storage); {@code context} tells a failure what ran.
   */
  static void assertExactlyOnce(Path lake, long n, String context) {
    List<Map<String, Object>> counts =
        ManifestView.query(
            lake,
            "orders",
            "count(*) as rows, count(distinct id) as ids, min(id)::bigint as low,"
                + " max(id)::bigint as high",
            "");
    assertThat(counts)
        .as("ids in the lake after:\n%s", context)
        .containsExactly(Map.of("rows", n, "ids", n, "low", 0L, "high", n - 1));
  }
}
