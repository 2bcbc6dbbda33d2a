package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.ConnectCluster;
import java.net.http.HttpResponse;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * With the broker stopped, a write is answered 503 (never 204), and once rows are stuck waiting for
 * Kafka the next write is answered 429 with Retry-After: no false acceptance, bounded memory.
 */
class HttpIngestKafkaOutageIT {

  private static ConnectCluster cluster;
  private static HttpIngest ingest;
  private static boolean brokersStopped;

  @BeforeAll
  static void start() throws Exception {
    cluster = ConnectCluster.start("http-ingest-outage-it");
    ingest =
        new HttpIngest(
            cluster,
            Map.of(
                "ack.timeout.ms", "3000",
                "limits.request.max.rows", "100",
                "admission.max.inflight.rows", "100",
                "admission.retry.after.seconds", "5"));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      if (brokersStopped) {
        // A worker stopped without its broker keeps client threads retrying it for the rest of
        // the test JVM: bring the broker back so the worker stops cleanly.
        cluster.kafka().restartOnlyBrokers();
      }
      cluster.close();
    }
  }

  @Test
  void brokerDownMeans503ThenBackpressure429() throws Exception {
    HttpResponse<String> before = ingest.post("/write", "out v=1i 1\nout v=2i 2\n");
    assertThat(before.statusCode()).as(before.body()).isEqualTo(204);
    assertThat(ingest.read(HttpIngest.PREFIX + "out", 2))
        .extracting(r -> ((Struct) r.value()).get("v"))
        .containsExactlyInAnyOrder(1L, 2L);

    cluster.kafka().stopOnlyBrokers();
    brokersStopped = true;

    StringBuilder hundred = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      hundred.append("out v=").append(100 + i).append("i ").append(100 + i).append('\n');
    }
    HttpResponse<String> during = ingest.post("/write", hundred.toString());
    assertThat(during.statusCode()).as(during.body()).isEqualTo(503);
    assertThat(during.headers().firstValue("Retry-After")).contains("5");

    HttpResponse<String> next = ingest.post("/write", "out v=300i 300\n");
    assertThat(next.statusCode()).as(next.body()).isEqualTo(429);
    assertThat(next.headers().firstValue("Retry-After")).contains("5");
  }
}
