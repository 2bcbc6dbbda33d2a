package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.fuzz.IngestRequests;
import io.skippr.connect.testkit.fuzz.RawHttp;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hostile requests against HTTP ingest in a real exactly-once worker loading the built plugin, set
 * up as the demo is ({@code transaction.boundary=connector}): a 1.1 MB invalid line is rejected
 * with a bounded rejection record and the task keeps serving; identical rows are answered 204; an
 * endpoint that stops under its task is a FAILED task in Connect's status; and hundreds of mutated
 * requests ({@link IngestRequests}) get their oracle's answers and leave the task serving.
 */
class HttpIngestHostileIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> EXACTLY_ONCE =
      Map.of("exactly.once.support", "required", "transaction.boundary", "connector");

  private static ConnectCluster cluster;
  private static HttpIngest ingest;

  @BeforeAll
  static void start() throws Exception {
    cluster =
        ConnectCluster.start(
            "http-ingest-hostile-it", 1, Map.of("exactly.once.source.support", "enabled"));
    ingest = new HttpIngest(cluster, EXACTLY_ONCE);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aHugeInvalidLineIsRejectedAndTheTaskKeepsServing() throws Exception {
    String huge = "m " + "x".repeat(1_100_000);
    HttpResponse<String> rejected = ingest.post("/write?db=x", huge);
    assertThat(rejected.statusCode()).as(rejected.body()).isEqualTo(400);
    JsonNode listed = JSON.readTree(rejected.body()).get("rejections").get(0);
    assertThat(listed.get("line").asInt()).isEqualTo(1);
    assertThat(listed.get("reason").asText()).isEqualTo("line longer than 1048576 bytes");

    HttpResponse<String> next = ingest.post("/write?db=x", "after,h=a v=1i 1");
    assertThat(next.statusCode()).as(next.body()).isEqualTo(204);
    assertThat(ingest.read(HttpIngest.PREFIX + "after", 1)).hasSize(1);
    assertThat(taskState(HttpIngest.CONNECTOR)).isEqualTo("RUNNING");

    List<ConsumerRecord<byte[], byte[]>> records = rawRecords(HttpIngest.PREFIX + "_rejections", 1);
    assertThat(records.get(0).value().length).isLessThan(1_000_000);
    Struct rejection = (Struct) ingest.read(HttpIngest.PREFIX + "_rejections", 1).get(0).value();
    assertThat(rejection.getInt64("position")).isEqualTo(1L);
    assertThat(rejection.getString("input")).isEqualTo(huge.substring(0, 65_536));
    assertThat(rejection.getBoolean("input_truncated")).isTrue();
  }

  @Test
  void identicalRowsAreAnsweredLikeAnyOther() throws Exception {
    HttpResponse<String> lines = ingest.post("/write?db=x", "dup,h=a v=1i 1\ndup,h=a v=1i 1");
    assertThat(lines.statusCode()).as(lines.body()).isEqualTo(204);
    assertThat(ingest.read(HttpIngest.PREFIX + "dup", 2))
        .extracting(HttpIngest.Record::key)
        .containsExactly("dup,h=a 1", "dup,h=a 1");

    HttpResponse<String> items = ingest.post("/ingest/dups", "[{\"id\":3},{\"id\":3}]");
    assertThat(items.statusCode()).as(items.body()).isEqualTo(204);
    assertThat(ingest.read(HttpIngest.PREFIX + "dups", 2))
        .extracting(HttpIngest.Record::value)
        .containsExactly(Map.of("id", 3L), Map.of("id", 3L));
  }

  @Test
  void anEndpointThatStopsUnderItsTaskIsAFailedTask() throws Exception {
    HttpIngest doomed = new HttpIngest(cluster, "doomed-ingest", EXACTLY_ONCE);
    assertThat(doomed.post("/write", "doomed v=1i 1").statusCode()).isEqualTo(204);

    WorkerTasks.stopIngestServer(cluster, doomed.connector);

    Await.until(
        Duration.ofMinutes(2),
        () -> "the task FAILED; status: " + cluster.statusOrError(doomed.connector),
        () -> "FAILED".equals(taskState(doomed.connector)));
    String trace = cluster.connect().connectorStatus(doomed.connector).tasks().get(0).trace();
    assertThat(trace)
        .contains(
            "HTTP ingest on port "
                + doomed.port
                + " stopped serving: the HTTP server stopped. Restart the task once the cause is"
                + " fixed.");
    assertThat(healthStatus(doomed)).isNotEqualTo(200);
    // The other connector's task is untouched.
    assertThat(taskState(HttpIngest.CONNECTOR)).isEqualTo("RUNNING");
  }

  @Test
  void hundredsOfMutatedRequestsLeaveTheTaskServing() throws Exception {
    Map<String, String> config = new HashMap<>(EXACTLY_ONCE);
    config.put("topic.prefix", "mut.");
    config.put("limits.row.max.bytes", "4096");
    config.put("limits.request.max.decompressed.bytes", Integer.toString(1 << 20));
    config.put("limits.topics.max", "60"); // mutated names past it are rejected, not new topics
    HttpIngest mutated = new HttpIngest(cluster, "mutated-ingest", config);
    // The good rows' names claim their topics first.
    for (int k = 0; k < 3; k++) {
      String line = "fz_good" + k + ",host=h mark=\"warm\",count=1i,ratio=0.5,flag=t";
      assertThat(mutated.post("/write", line).statusCode()).isEqualTo(204);
    }
    for (String stream : List.of("fz_json0", "fz_json1", "fz_j%C3%A9son", "fz%20json")) {
      String item =
          "{\"mark\":\"warm\",\"count\":1,\"ratio\":0.5,\"flag\":true,"
              + "\"attrs\":{\"name\":\"w\",\"depth\":1},\"items\":[1]}";
      assertThat(mutated.post("/ingest/" + stream, item).statusCode()).isEqualTo(204);
    }

    long seed = Long.getLong("ingest.mutations.seed", System.nanoTime());
    int count = Integer.getInteger("ingest.mutations", 400);
    IngestRequests requests = new IngestRequests("it" + seed, 4096, 1 << 20);
    Random random = new Random(seed);
    Map<Integer, Integer> statuses = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      IngestRequests.Request q = requests.next(random);
      RawHttp.Answer answer = RawHttp.exchange("127.0.0.1", mutated.port, q);
      String why = "seed " + seed + " (-Dingest.mutations.seed), request " + i + ": " + q;
      assertThat(answer.status()).as(why + " -> " + answer.body()).isLessThan(500);
      if (q.status() != 0) {
        assertThat(answer.status()).as(why + " -> " + answer.body()).isEqualTo(q.status());
      }
      if (q.expect() == IngestRequests.Expect.PARTIAL) {
        JsonNode body = JSON.readTree(answer.body());
        int accepted = q.nothingAccepted() ? 0 : q.goodMarks().size();
        assertThat(body.get("accepted").asInt()).as(why).isEqualTo(accepted);
        assertThat(body.get("rejected").asInt()).as(why).isEqualTo(q.badPositions().size());
      }
      statuses.merge(answer.status(), 1, Integer::sum);
    }
    System.out.printf("mutated requests: seed %d, answers by status %s%n", seed, statuses);

    assertThat(taskState(mutated.connector)).isEqualTo("RUNNING");
    assertThat(mutated.get("/health").statusCode()).isEqualTo(200);
    HttpResponse<String> normal = mutated.post("/write", "fz_after,host=h v=42i 1");
    assertThat(normal.statusCode()).as(normal.body()).isEqualTo(204);
    assertThat(mutated.read("mut.fz_after", 1))
        .extracting(r -> ((Struct) r.value()).get("v"))
        .containsExactly(42L);
  }

  private static String taskState(String connector) {
    ConnectorStateInfo status = cluster.connect().connectorStatus(connector);
    return status.tasks().get(0).state();
  }

  /** The status /health answers, or -1 when nothing listens. */
  private static int healthStatus(HttpIngest endpoint) throws InterruptedException {
    try {
      return endpoint.get("/health").statusCode();
    } catch (IOException e) {
      return -1;
    }
  }

  private static List<ConsumerRecord<byte[], byte[]>> rawRecords(String topic, int count) {
    List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
    cluster.kafka().consume(count, 60_000, topic).forEach(out::add);
    return out;
  }
}
