package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** {@code skippr audit} as a check of the chaos tests: run as its own process, it must exit 0. */
final class AuditCli {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  private AuditCli() {}

  /**
   * Audits the lake of a running lake sink connector, with its config read from Connect's REST API:
   * exit 0 (no gap, overlap, missing file or group offset past the lake), every one of {@code
   * partitions} TPs reported, none with a problem.
   *
   * @return the JSON report
   */
  static JsonNode assertClean(
      Path logs, String connector, String connectUrl, String bootstrapServers, int partitions)
      throws Exception {
    CliProcess audit =
        CliProcess.start(
            "audit-" + connector,
            logs,
            List.of(
                "audit",
                "--connector=" + connector,
                "--connect-url=" + connectUrl,
                "--bootstrap-servers=" + bootstrapServers,
                "--output=json"),
            Path.of("").toAbsolutePath(),
            Map.of());
    int exit = audit.awaitExit(TIMEOUT);
    assertThat(exit).as("skippr audit of " + connector + ":\n" + audit.output()).isZero();
    JsonNode report = JSON.readTree(audit.stdout());
    assertThat(report.get("partitions")).as(audit.stdout()).hasSize(partitions);
    for (JsonNode tp : report.get("partitions")) {
      assertThat(tp.get("status").asText()).as(tp.toString()).isNotEqualTo("problem");
    }
    JsonNode summary = report.get("summary");
    System.out.printf(
        "skippr audit of %s: %s, %d partition(s), %d clean, findings %s%n",
        connector,
        report.get("status").asText(),
        summary.get("partitions").asInt(),
        summary.get("clean").asInt(),
        summary.get("findings"));
    return report;
  }
}
