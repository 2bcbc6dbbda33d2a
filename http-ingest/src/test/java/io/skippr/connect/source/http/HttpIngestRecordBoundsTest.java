package io.skippr.connect.source.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/**
 * No input makes a record the producer would refuse (TaskHarness fails a test that hands one over):
 * rejection records keep at most limits.rejection.input.max.bytes of the input, and a row whose
 * record would exceed limits.record.max.bytes is rejected on its own while the rest of its request
 * lands.
 */
class HttpIngestRecordBoundsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String REJECTIONS = "lp._rejections";

  @Test
  void aLineOverTheRowLimitIsRejectedWithABoundedRecord() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of(), TaskHarness.Mode.TRANSACTIONAL)) {
      String huge = "m " + "x".repeat(1_100_000);
      HttpResponse<String> r = h.post("/write?db=x", huge + "\nok v=1i 1\n");
      assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
      JsonNode body = JSON.readTree(r.body());
      assertThat(body.get("accepted").asInt()).isEqualTo(1);
      JsonNode listed = body.get("rejections").get(0);
      assertThat(listed.get("line").asInt()).isEqualTo(1);
      assertThat(listed.get("reason").asText()).isEqualTo("line longer than 1048576 bytes");
      assertThat(listed.get("input").asText()).hasSize(257).startsWith("m xxx").endsWith("\u2026");

      Struct rejection = (Struct) h.sentTo(REJECTIONS).get(0).value();
      assertThat(rejection.getInt64("position")).isEqualTo(1L);
      assertThat(rejection.getString("reason")).isEqualTo("line longer than 1048576 bytes");
      assertThat(rejection.getString("input")).isEqualTo(huge.substring(0, 65_536));
      assertThat(rejection.getBoolean("input_truncated")).isTrue();
      assertThat(h.sentTo("lp.ok")).hasSize(1);

      assertThat(h.post("/write", "ok v=2i 2").statusCode()).isEqualTo(204);
    }
  }

  @Test
  void theKeptInputIsConfigurableAndNeverSplitsACharacter() throws Exception {
    Map<String, String> props = Map.of("limits.rejection.input.max.bytes", "10");
    try (TaskHarness h = new TaskHarness(props)) {
      // "m v=" is 4 bytes, then 3-byte characters: 10 bytes hold two of them, not a third's half.
      HttpResponse<String> r = h.post("/write", "m v=\u20ac\u20ac\u20ac");
      assertThat(r.statusCode()).isEqualTo(400);
      Struct rejection = (Struct) h.sentTo(REJECTIONS).get(0).value();
      assertThat(rejection.getString("input")).isEqualTo("m v=\u20ac\u20ac");
      assertThat(rejection.getBoolean("input_truncated")).isTrue();
    }
  }

  @Test
  void aLineWhoseRecordWouldBeTooLargeIsRejectedOnItsOwn() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of(), TaskHarness.Mode.TRANSACTIONAL)) {
      // 200,000 control characters: within the string limit, 1.2 MB as JSON (each one \\u0001).
      String control = "\u0001".repeat(200_000);
      HttpResponse<String> r = h.post("/write", "big s=\"" + control + "\"\nbig s=\"fine\"\n");
      assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
      JsonNode listed = JSON.readTree(r.body()).get("rejections").get(0);
      assertThat(listed.get("line").asInt()).isEqualTo(1);
      assertThat(listed.get("reason").asText())
          .startsWith("the row would be a record of ")
          .endsWith(
              " bytes, more than limits.record.max.bytes (1000000): the producer could"
                  + " not send it");
      List<SourceRecord> rows = h.sentTo("lp.big");
      assertThat(rows).extracting(x -> ((Struct) x.value()).getString("s")).containsExactly("fine");
      assertThat(h.sentTo(REJECTIONS)).hasSize(1);
    }
  }

  @Test
  void aJsonItemWhoseRecordWouldBeTooLargeIsRejectedOnItsOwn() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of(), TaskHarness.Mode.TRANSACTIONAL)) {
      String big = "y".repeat(2_000_000);
      HttpResponse<String> r = h.post("/ingest/items", "{\"s\":\"" + big + "\"}\n{\"id\":1}\n");
      assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
      JsonNode body = JSON.readTree(r.body());
      assertThat(body.get("accepted").asInt()).isEqualTo(1);
      assertThat(body.get("rejections").get(0).get("item").asInt()).isZero();
      assertThat(h.sentTo("lp.items"))
          .extracting(SourceRecord::value)
          .containsExactly(Map.of("id", 1L));
      Struct rejection = (Struct) h.sentTo(REJECTIONS).get(0).value();
      assertThat(rejection.getString("input").getBytes(StandardCharsets.UTF_8)).hasSize(65_536);
      assertThat(rejection.getBoolean("input_truncated")).isTrue();
    }
  }

  @Test
  void aLongReasonIsCut() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of("limits.name.max.bytes", "100000"))) {
      // The reason names the field key, 60,000 bytes long.
      String key = "k".repeat(60_000);
      HttpResponse<String> r = h.post("/write", "m " + key + "=");
      assertThat(r.statusCode()).isEqualTo(400);
      Struct rejection = (Struct) h.sentTo(REJECTIONS).get(0).value();
      assertThat(rejection.getString("reason").getBytes(StandardCharsets.UTF_8))
          .hasSizeLessThanOrEqualTo(2048);
      assertThat(rejection.getString("reason")).startsWith("missing value for field 'kkk");
    }
  }
}
