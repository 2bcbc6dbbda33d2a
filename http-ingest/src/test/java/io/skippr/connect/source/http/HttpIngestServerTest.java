package io.skippr.connect.source.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.testkit.fuzz.Gzip;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class HttpIngestServerTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void acceptedRowsBecomeRecordsAndTheAnswerIs204() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of())) {
      long before = System.currentTimeMillis();
      HttpResponse<String> r =
          h.post(
              "/api/v2/write?org=o&bucket=b&precision=ms",
              "cpu,host=a,region=eu usage=0.5,count=3i,up=t,name=\"x y\" 1700000000123\n"
                  + "# comment\n\n"
                  + "cpu,region=eu,host=b usage=1 1700000000124\r\n");
      assertThat(r.statusCode()).isEqualTo(204);
      assertThat(r.headers().firstValue("X-Influxdb-Build")).contains("skippr-connect");
      List<SourceRecord> records = h.sentTo("lp.cpu");
      assertThat(records).hasSize(2);
      SourceRecord first = records.get(0);
      assertThat(first.key()).isEqualTo("cpu,host=a,region=eu 1700000000123000000");
      assertThat(first.keySchema()).isEqualTo(Schema.STRING_SCHEMA);
      assertThat(first.timestamp()).isBetween(before, System.currentTimeMillis());
      Struct v = (Struct) first.value();
      assertThat(v.get("time")).isEqualTo(new Date(1700000000123L));
      assertThat(v.get("time_ns")).isEqualTo(1700000000123000000L);
      assertThat(v.get("host")).isEqualTo("a");
      assertThat(v.get("region")).isEqualTo("eu");
      assertThat(v.get("usage")).isEqualTo(0.5);
      assertThat(v.get("count")).isEqualTo(3L);
      assertThat(v.get("up")).isEqualTo(true);
      assertThat(v.get("name")).isEqualTo("x y");
      assertThat(first.headers().lastWithName("measurement")).isNull();
      assertThat(first.headers().lastWithName("database").value()).isEqualTo("b");
      Struct second = (Struct) records.get(1).value();
      assertThat(records.get(1).key()).isEqualTo("cpu,host=b,region=eu 1700000000124000000");
      assertThat(second.get("count")).isNull();
      assertThat(second.schema().field("name").schema()).isEqualTo(Schema.OPTIONAL_STRING_SCHEMA);
    }
  }

  @Test
  void partialWriteListsRejectionsAndLandsTheValidRows() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of())) {
      HttpResponse<String> r =
          h.post("/write?db=telegraf", "m v=1 1\nm v= 2\nm v=2 3\nm,t=x v=\"s\" 4\n");
      assertThat(r.statusCode()).isEqualTo(400);
      JsonNode body = JSON.readTree(r.body());
      assertThat(body.get("accepted").asInt()).isEqualTo(2);
      assertThat(body.get("rejected").asInt()).isEqualTo(2);
      assertThat(body.get("error").asText()).isEqualTo("partial write: 2 of 4 rows rejected");
      JsonNode rejections = body.get("rejections");
      assertThat(rejections.get(0).get("line").asInt()).isEqualTo(2);
      assertThat(rejections.get(0).get("reason").asText())
          .isEqualTo("missing value for field 'v' at column 5");
      assertThat(rejections.get(0).get("input").asText()).isEqualTo("m v= 2");
      assertThat(rejections.get(1).get("line").asInt()).isEqualTo(4);
      assertThat(rejections.get(1).get("reason").asText())
          .isEqualTo(
              "'v' is written as a string field but measurement 'm' already has it as a float field");
      assertThat(h.sentTo("lp.m")).hasSize(2);
      List<SourceRecord> rejected = h.sentTo("lp._rejections");
      assertThat(rejected).hasSize(2);
      Struct first = (Struct) rejected.get(0).value();
      assertThat(first.get("position_kind")).isEqualTo("line");
      assertThat(first.get("position")).isEqualTo(2L);
      assertThat(first.get("endpoint")).isEqualTo("/write");
      assertThat(first.get("input")).isEqualTo("m v= 2");
    }
  }

  @Test
  void v3WithoutAcceptPartialWritesNothingWhenALineIsBad() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of())) {
      HttpResponse<String> r =
          h.post("/api/v3/write_lp?db=x&accept_partial=false&precision=second", "m v=1 1\nbad\n");
      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(JSON.readTree(r.body()).get("accepted").asInt()).isZero();
      assertThat(h.sentTo("lp.m")).isEmpty();
      assertThat(h.sentTo("lp._rejections")).hasSize(1);
      HttpResponse<String> ok = h.post("/api/v3/write_lp?db=x&precision=second", "m v=1 1\n");
      assertThat(ok.statusCode()).isEqualTo(204);
      assertThat(((Struct) h.sentTo("lp.m").get(0).value()).get("time_ns"))
          .isEqualTo(1_000_000_000L);
    }
  }

  @Test
  void gzipBodiesAreDecompressed() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of())) {
      byte[] body = Gzip.gzip("g v=1i 5\n".getBytes(StandardCharsets.UTF_8));
      HttpResponse<String> r = h.post("/api/v2/write?bucket=b", body, "Content-Encoding", "gzip");
      assertThat(r.statusCode()).isEqualTo(204);
      assertThat(((Struct) h.sentTo("lp.g").get(0).value()).get("v")).isEqualTo(1L);
    }
  }

  @Test
  void requestLimitsAnswer413AndAcceptNothing() throws Exception {
    Map<String, String> props =
        Map.of(
            "limits.request.max.rows", "3",
            "limits.request.max.bytes", "1000",
            "limits.request.max.decompressed.bytes", "2000");
    try (TaskHarness h = new TaskHarness(props)) {
      HttpResponse<String> rows = h.post("/write", "m v=1\nm v=2\nm v=3\nm v=4\n");
      assertThat(rows.statusCode()).isEqualTo(413);
      assertThat(JSON.readTree(rows.body()).get("message").asText())
          .isEqualTo("more than 3 rows in one request");
      HttpResponse<String> big = h.post("/write", "m v=1 " + "1".repeat(1200));
      assertThat(big.statusCode()).isEqualTo(413);
      byte[] bomb = Gzip.gzip(("m v=1\n" + " ".repeat(5000)).getBytes(StandardCharsets.UTF_8));
      assertThat(bomb.length).isLessThan(1000);
      HttpResponse<String> inflated = h.post("/write", bomb, "Content-Encoding", "gzip");
      assertThat(inflated.statusCode()).isEqualTo(413);
      assertThat(JSON.readTree(inflated.body()).get("message").asText())
          .isEqualTo("decompressed request body larger than 2000 bytes");
      assertThat(h.sent()).isEmpty();
    }
  }

  @Test
  void overAdmissionLimitsAnswer429WithRetryAfter() throws Exception {
    Map<String, String> props =
        Map.of(
            "limits.request.max.rows", "10",
            "admission.max.inflight.rows", "10",
            "admission.retry.after.seconds", "7",
            "ack.timeout.ms", "30000");
    try (TaskHarness h = new TaskHarness(props)) {
      h.acks(TaskHarness.Acks.NONE);
      CompletableFuture<HttpResponse<String>> first =
          CompletableFuture.supplyAsync(() -> post(h, "/write", "m v=1\n".repeat(8)));
      awaitSent(h, 8);
      HttpResponse<String> second = h.post("/write", "m v=2\n".repeat(5));
      assertThat(second.statusCode()).isEqualTo(429);
      assertThat(second.headers().firstValue("Retry-After")).contains("7");
      for (SourceRecord r : h.sent()) {
        h.task.commitRecord(r, null);
      }
      assertThat(first.get().statusCode()).isEqualTo(204);
      h.acks(TaskHarness.Acks.ALL);
      assertThat(h.post("/write", "m v=2\n".repeat(5)).statusCode()).isEqualTo(204);
    }
  }

  @Test
  void withoutKafkaAcknowledgementTheAnswerIs503AndQueuedRowsAreDropped() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of("ack.timeout.ms", "300"))) {
      h.polling(false);
      HttpResponse<String> r = h.post("/write", "m v=1\nm v=2\n");
      assertThat(r.statusCode()).isEqualTo(503);
      assertThat(r.headers().firstValue("Retry-After")).contains("1");
      h.polling(true);
      h.acks(TaskHarness.Acks.NONE);
      HttpResponse<String> unacked = h.post("/write", "m v=3\n");
      assertThat(unacked.statusCode()).isEqualTo(503);
      assertThat(h.sent()).hasSize(1);
      assertThat(((Struct) h.sent().get(0).value()).get("v")).isEqualTo(3.0);
    }
  }

  @Test
  void nullMetadataCountsAsAcknowledged() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of())) {
      h.acks(TaskHarness.Acks.NULL_METADATA);
      assertThat(h.post("/write", "m v=1\n").statusCode()).isEqualTo(204);
    }
  }

  @Test
  void tokenAuthentication() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of("auth.token", "s3cret"))) {
      assertThat(h.post("/write", "m v=1").statusCode()).isEqualTo(401);
      assertThat(h.post("/write", "m v=1", "Authorization", "Token wrong").statusCode())
          .isEqualTo(401);
      assertThat(h.post("/api/v2/write", "m v=1", "Authorization", "Token s3cret").statusCode())
          .isEqualTo(204);
      assertThat(h.post("/api/v3/write_lp", "m v=1", "Authorization", "Bearer s3cret").statusCode())
          .isEqualTo(204);
      String basic =
          java.util.Base64.getEncoder().encodeToString("u:s3cret".getBytes(StandardCharsets.UTF_8));
      assertThat(h.post("/write", "m v=1", "Authorization", "Basic " + basic).statusCode())
          .isEqualTo(204);
      assertThat(h.post("/write?u=x&p=s3cret", "m v=1").statusCode()).isEqualTo(204);
      assertThat(h.post("/ingest/s", "{}").statusCode()).isEqualTo(401);
      assertThat(h.get("/ping").statusCode()).isEqualTo(204);
    }
  }

  @Test
  void pingHealthAndUnknownPaths() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of())) {
      HttpResponse<String> ping = h.get("/ping");
      assertThat(ping.statusCode()).isEqualTo(204);
      assertThat(ping.headers().firstValue("X-Influxdb-Version")).isPresent();
      HttpResponse<String> health = h.get("/health");
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(JSON.readTree(health.body()).get("status").asText()).isEqualTo("pass");
      assertThat(h.get("/nope").statusCode()).isEqualTo(404);
      assertThat(h.get("/write").statusCode()).isEqualTo(405);
      assertThat(h.post("/write?precision=fortnight", "m v=1").statusCode()).isEqualTo(400);
      assertThat(h.post("/write", "m v=1", "Content-Encoding", "br").statusCode()).isEqualTo(400);
      assertThat(h.post("/write", "").statusCode()).isEqualTo(204);
    }
  }

  @Test
  void jsonArrayNdjsonAndMetricsBatches() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of())) {
      assertThat(h.post("/ingest/events", "[{\"a\":1},{\"b\":{\"c\":[1.5,2,null]}}]").statusCode())
          .isEqualTo(204);
      assertThat(h.post("/ingest/events", "{\"a\":2}\n{\"a\":3}\n").statusCode()).isEqualTo(204);
      assertThat(
              h.post("/ingest/events", "{\"metrics\":[{\"name\":\"cpu\",\"fields\":{\"v\":1}}]}")
                  .statusCode())
          .isEqualTo(204);
      List<SourceRecord> records = h.sentTo("lp.events");
      assertThat(records)
          .extracting(SourceRecord::value)
          .containsExactly(
              Map.of("a", 1L),
              Map.of("b", Map.of("c", java.util.Arrays.asList(1.5, 2L, null))),
              Map.of("a", 2L),
              Map.of("a", 3L),
              Map.of("name", "cpu", "fields", Map.of("v", 1L)));
      assertThat(records.get(0).valueSchema()).isNull();
    }
  }

  @Test
  void jsonRejectionsNameTheItem() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of())) {
      HttpResponse<String> r =
          h.post("/ingest/events", "{\"a\":1}\n{broken\n[1]\n{\"n\":123456789012345678901234}\n");
      assertThat(r.statusCode()).isEqualTo(400);
      JsonNode rejections = JSON.readTree(r.body()).get("rejections");
      assertThat(rejections).hasSize(3);
      assertThat(rejections.get(0).get("item").asInt()).isEqualTo(1);
      assertThat(rejections.get(0).get("reason").asText()).startsWith("malformed JSON");
      assertThat(rejections.get(1).get("item").asInt()).isEqualTo(2);
      assertThat(rejections.get(1).get("reason").asText()).isEqualTo("item is not a JSON object");
      assertThat(rejections.get(2).get("reason").asText())
          .isEqualTo("integer 123456789012345678901234 outside the 64-bit range");
      assertThat(h.sentTo("lp.events")).hasSize(1);
      assertThat(h.sentTo("lp._rejections")).hasSize(3);
      assertThat(h.post("/ingest/_x", "{}").statusCode()).isEqualTo(400);
      assertThat(h.post("/ingest/a%20b", "{\"v\":1}").statusCode()).isEqualTo(204);
      assertThat(h.sentTo("lp._a_20b")).hasSize(1);
    }
  }

  private static HttpResponse<String> post(TaskHarness h, String path, String body) {
    try {
      return h.post(path, body);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void awaitSent(TaskHarness h, int count) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (h.sent().size() < count) {
      assertThat(System.nanoTime()).as("records reached Connect in time").isLessThan(deadline);
      Thread.sleep(5);
    }
  }
}
