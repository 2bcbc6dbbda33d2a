package io.skippr.connect.source.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.testkit.fuzz.FuzzShare;
import io.skippr.connect.testkit.fuzz.IngestRequests;
import io.skippr.connect.testkit.fuzz.RawHttp;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Hostile requests ({@link IngestRequests}: line protocol to the three write paths with odd query
 * strings, JSON in its three forms, gzip valid, cut short, with trailing bytes and as a bomb, wrong
 * methods and paths) against a real task in a transactional TaskHarness, a tenth of fuzz.tries
 * requests (each a round trip): each is answered the status its oracle names and never 5xx; the
 * good rows of a request land and its bad rows are listed with their positions; every record fits
 * the producer (TaskHarness fails otherwise); a rejection keeps at most 64 KiB of input; every
 * fourth request sent again gets the same answer; and the task is still serving at the end.
 */
class HttpIngestFuzzTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int ROW_MAX_BYTES = 4096;
  private static final long DECOMPRESSED_MAX_BYTES = 1 << 20;

  private final TaskHarness harness =
      new TaskHarness(
          Map.of(
              "limits.row.max.bytes", Integer.toString(ROW_MAX_BYTES),
              "limits.request.max.decompressed.bytes", Long.toString(DECOMPRESSED_MAX_BYTES),
              "limits.topics.max", "1000000"),
          TaskHarness.Mode.TRANSACTIONAL);
  private final IngestRequests requests =
      new IngestRequests("f" + System.nanoTime(), ROW_MAX_BYTES, DECOMPRESSED_MAX_BYTES);
  private final Set<String> landed = new HashSet<>();
  private int seen;
  private int sent;

  @Property
  @FuzzShare(10)
  void everyRequestGetsItsAnswerAndGoodRowsLand(@ForAll("requests") IngestRequests.Request q)
      throws Exception {
    RawHttp.Answer answer = send(q);
    String why = q + " -> " + answer.status() + " " + answer.body();
    assertThat(answer.status()).as(why).isLessThan(500);
    if (q.status() != 0) {
      assertThat(answer.status()).as(why).isEqualTo(q.status());
    } else {
      assertThat(answer.status()).as(why).isIn(204, 400);
    }
    checkAnswer(q, answer, why);
    collectLanded(why);
    assertThat(landed).as(why).containsAll(q.goodMarks());
    if (sent++ % 4 == 0) {
      RawHttp.Answer again = send(q);
      assertThat(again.status()).as("sent again: " + why).isEqualTo(answer.status());
      assertThat(rejections(again)).as("sent again: " + why).isEqualTo(rejections(answer));
      collectLanded(why);
    }
  }

  @Provide
  Arbitrary<IngestRequests.Request> requests() {
    return Arbitraries.randomValue(requests::next);
  }

  /** Checks the positions a 400 lists and the rows it reports accepted against the oracle. */
  private void checkAnswer(IngestRequests.Request q, RawHttp.Answer answer, String why)
      throws Exception {
    if (answer.status() != 400 || !answer.body().contains("\"rejections\"")) {
      assertThat(q.expect()).as(why).isNotEqualTo(IngestRequests.Expect.PARTIAL);
      return;
    }
    JsonNode body = JSON.readTree(answer.body());
    List<Long> positions = new ArrayList<>();
    body.get("rejections").forEach(r -> positions.add(position(r)));
    switch (q.expect()) {
      case PARTIAL -> {
        assertThat(positions).as(why).isEqualTo(q.badPositions());
        assertThat(body.get("accepted").asInt())
            .as(why)
            .isEqualTo(q.nothingAccepted() ? 0 : q.goodMarks().size());
      }
      case GOOD_LAND -> assertThat(positions).as(why).containsAll(q.badPositions());
      default -> {}
    }
  }

  private static long position(JsonNode rejection) {
    return rejection.has("line") ? rejection.get("line").asLong() : rejection.get("item").asLong();
  }

  /** Positions and reasons of a 400's rejections. */
  private static List<String> rejections(RawHttp.Answer answer) throws Exception {
    List<String> out = new ArrayList<>();
    if (answer.status() == 400 && answer.body().contains("\"rejections\"")) {
      for (JsonNode r : JSON.readTree(answer.body()).get("rejections")) {
        out.add(position(r) + ": " + r.get("reason").asText());
      }
    }
    return out;
  }

  /** Adds the marks of the records Connect took since the last call; checks rejection records. */
  private void collectLanded(String why) {
    List<SourceRecord> records = harness.sentSince(seen);
    seen += records.size();
    for (SourceRecord r : records) {
      Object value = r.value();
      if (value instanceof Struct s && s.schema().field("mark") != null) {
        landed.add(s.getString("mark"));
      } else if (value instanceof Struct s && s.schema().field("input") != null) {
        String input = s.getString("input");
        int bytes = input == null ? 0 : input.getBytes(StandardCharsets.UTF_8).length;
        assertThat(bytes).as(why).isLessThanOrEqualTo(64 * 1024);
      } else if (value instanceof Map<?, ?> m && m.get("mark") instanceof String mark) {
        landed.add(mark);
      }
    }
  }

  private RawHttp.Answer send(IngestRequests.Request q) throws Exception {
    return RawHttp.exchange("127.0.0.1", harness.port(), q);
  }

  @AfterProperty
  void theTaskStillServes() throws Exception {
    try {
      assertThat(harness.failure()).isNull();
      assertThat(harness.get("/health").statusCode()).isEqualTo(200);
      assertThat(harness.post("/write", "fz_after v=1i 1").statusCode()).isEqualTo(204);
    } finally {
      harness.close(); // fails when a record the producer would refuse was handed over
    }
  }
}
