package io.skippr.connect.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class DemoLoadTest {
  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05.678Z");
  private static final Pattern LINE =
      Pattern.compile(
          "cpu,host=(host-0[1-6]),region=(eu-west|us-east|ap-south),run=run-20260102-030405"
              + " usage_user=\\d+\\.\\d\\d,usage_system=\\d+\\.\\d\\d (\\d+)");

  private final DemoLoad load = new DemoLoad(NOW);

  @Test
  void cpuIsThreeThousandPointsOfSixHostsOverTheLastFiveHundredSeconds() {
    List<DemoLoad.Request> requests = load.cpuRequests();
    assertThat(requests)
        .extracting(DemoLoad.Request::path)
        .containsExactly(
            "/write?db=demo&precision=ms",
            "/api/v2/write?bucket=demo&precision=ms",
            "/api/v2/write?bucket=demo&precision=ms");
    Map<String, Integer> perHost = new HashMap<>();
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    int rows = 0;
    for (DemoLoad.Request request : requests) {
      List<String> lines = request.body().lines().toList();
      assertThat(request.rows()).isEqualTo(lines.size());
      for (String line : lines) {
        Matcher m = LINE.matcher(line);
        assertThat(m.matches()).as(line).isTrue();
        perHost.merge(m.group(1), 1, Integer::sum);
        min = Math.min(min, Long.parseLong(m.group(3)));
        max = Math.max(max, Long.parseLong(m.group(3)));
        rows++;
      }
    }
    assertThat(rows).isEqualTo(3000);
    assertThat(perHost).hasSize(6).allSatisfy((host, n) -> assertThat(n).isEqualTo(500));
    assertThat(max).isEqualTo(NOW.toEpochMilli() - 1000);
    assertThat(min).isEqualTo(NOW.toEpochMilli() - 500_000);
  }

  @Test
  void ordersAreThreeHundredJsonObjectsCarryingTheRun() throws Exception {
    ObjectMapper json = new ObjectMapper();
    int orders = 0;
    for (DemoLoad.Request request : load.orderRequests()) {
      assertThat(request.path()).isEqualTo("/ingest/orders");
      JsonNode array = json.readTree(request.body());
      assertThat(array.size()).isEqualTo(request.rows());
      for (JsonNode order : array) {
        orders++;
        assertThat(order.get("order_id").asInt()).isEqualTo(orders);
        assertThat(order.get("run").asText()).isEqualTo("run-20260102-030405");
        assertThat(order.get("amount").isDouble()).isTrue();
        assertThat(order.get("ordered_at").asText())
            .matches("2026-01-02T0[23]:\\d\\d:\\d\\d\\.678Z");
      }
    }
    assertThat(orders).isEqualTo(300);
  }
}
