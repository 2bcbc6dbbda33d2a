package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
 * endpoint that stops under its task is a FAILED task in Connect's status.
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
    List<ConsumerRecord<byte[], byte[]>> out = new java.util.ArrayList<>();
    cluster.kafka().consume(count, 60_000, topic).forEach(out::add);
    return out;
  }
}
