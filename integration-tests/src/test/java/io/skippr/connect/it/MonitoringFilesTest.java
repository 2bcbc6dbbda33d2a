package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The monitoring files of the compose stack: the Grafana dashboard is valid JSON on the provisioned
 * data source and queries only metrics the JMX exporter rules produce (those {@link ExposedMetrics}
 * lists, which the scrape tests find), and Prometheus' config passes {@code promtool check config}
 * where promtool is installed (Debian's {@code prometheus}, which .ci/prerequisites installs).
 */
class MonitoringFilesTest {
  private static final Path DOCKER = ComposeFiles.DOCKER;
  private static final Pattern METRIC = Pattern.compile("\\b((?:skippr|kafka)_[a-z0-9_]+)\\b");

  @Test
  void theDashboardQueriesOnlyMetricsTheRulesProduce() throws IOException {
    JsonNode dashboard =
        new ObjectMapper()
            .readTree(DOCKER.resolve("grafana/dashboards/skippr-connect.json").toFile());
    assertThat(dashboard.path("uid").asText()).isEqualTo("skippr-connect");
    List<String> expressions = new ArrayList<>();
    dashboard.findValues("expr").forEach(e -> expressions.add(e.asText()));
    dashboard.findValues("definition").forEach(e -> expressions.add(e.asText()));
    assertThat(expressions).hasSizeGreaterThan(10);
    Set<String> queried = new TreeSet<>();
    for (String expr : expressions) {
      Matcher m = METRIC.matcher(expr);
      while (m.find()) {
        queried.add(m.group(1));
      }
    }
    assertThat(queried)
        .as("metrics the dashboard queries")
        .contains(
            "skippr_rows_accepted_total",
            "skippr_rows_committed_total",
            "skippr_lag_records",
            "skippr_commit_latency_avg",
            "skippr_rows_rejected_total",
            "skippr_buffered_bytes",
            "skippr_files_committed_total",
            "skippr_requests_total");
    assertThat(ExposedMetrics.all().keySet()).containsAll(queried);
    String datasource =
        new YAMLMapper()
            .readTree(DOCKER.resolve("grafana/provisioning/datasources/prometheus.yml").toFile())
            .path("datasources")
            .path(0)
            .path("uid")
            .asText();
    for (JsonNode ds : dashboard.findValues("datasource")) {
      assertThat(ds.path("uid").asText()).isEqualTo(datasource);
    }
  }

  @Test
  void everyPanelHasItsPlaceAndADescription() throws IOException {
    JsonNode dashboard =
        new ObjectMapper()
            .readTree(DOCKER.resolve("grafana/dashboards/skippr-connect.json").toFile());
    for (JsonNode panel : dashboard.path("panels")) {
      String title = panel.path("title").asText();
      for (String field : List.of("h", "w", "x", "y")) {
        assertThat(panel.path("gridPos").path(field).isInt())
            .as(title + ": gridPos." + field + " is a number")
            .isTrue();
      }
      assertThat(panel.path("description").asText()).as(title + ": description").isNotBlank();
    }
  }

  /**
   * Kafka's consumers report the lag of a topic with a '.' in its name twice (also under a
   * deprecated name with '_' for '.'): per partition, the dashboard would show such topics twice.
   */
  @Test
  void theConsumersLagIsShownPerConsumerNotPerTopicPartition() throws IOException {
    JsonNode dashboard =
        new ObjectMapper()
            .readTree(DOCKER.resolve("grafana/dashboards/skippr-connect.json").toFile());
    for (JsonNode expr : dashboard.findValues("expr")) {
      if (expr.asText().contains("kafka_consumer_records_lag")) {
        assertThat(expr.asText()).startsWith("max by (client_id) (kafka_consumer_records_lag{");
      }
    }
  }

  @Test
  void prometheusConfigPassesPromtool() throws Exception {
    Assumptions.assumeTrue(
        onPath("promtool"),
        "promtool is not installed (Debian package prometheus; .ci/prerequisites installs it)");
    Path log = Files.createTempFile("promtool", ".log");
    Process check =
        new ProcessBuilder(
                "promtool",
                "check",
                "config",
                DOCKER.resolve("prometheus/prometheus.yml").toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(check.exitValue()).as(Files.readString(log)).isZero();
  }

  private static boolean onPath(String command) {
    for (String folder : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, command))) {
        return true;
      }
    }
    return false;
  }
}
