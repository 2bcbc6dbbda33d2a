package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.FreePorts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code skippr local} as a user runs it: a separate process, stopped with SIGTERM. */
class LocalStackIT {
  private static final Duration READY = Duration.ofMinutes(2);

  @TempDir Path dataDir;
  @TempDir Path logs;

  @Test
  void startsStopsCleanlyAndResumesTheSameCluster() throws Exception {
    int[] ports = FreePorts.take(3);
    String clusterId;
    CliProcess first = start("first", dataDir, ports);
    try {
      first.awaitReady(READY);
      assertThat(get("http://127.0.0.1:" + ports[2] + "/connector-plugins?connectorsOnly=false"))
          .contains("io.skippr.connect.sink.LakeSinkConnector");
      try (Admin admin = admin(ports[0])) {
        admin.createTopics(List.of(new NewTopic("kept-across-restarts", 2, (short) 1))).all().get();
        clusterId = admin.describeCluster().clusterId().get();
      }
    } finally {
      first.stop();
    }
    assertThat(first.exitCode()).as(first.output()).isZero();

    CliProcess second = start("second", dataDir, ports);
    try {
      second.awaitReady(READY);
      try (Admin admin = admin(ports[0])) {
        assertThat(admin.describeCluster().clusterId().get()).isEqualTo(clusterId);
        Set<String> topics = admin.listTopics().names().get();
        assertThat(topics).contains("kept-across-restarts", "skippr-local-configs");
      }
    } finally {
      second.stop();
    }
    assertThat(second.exitCode()).as(second.output()).isZero();
  }

  @Test
  void portInUseIsAOneLineError() throws Exception {
    int[] ports = FreePorts.take(3);
    try (ServerSocket taken = new ServerSocket(ports[2], 1, InetAddress.getLoopbackAddress())) {
      CliProcess process = start("port-in-use", dataDir, ports);
      assertThat(process.awaitExit(Duration.ofSeconds(60))).isNotZero();
      assertThat(process.errorLines())
          .containsExactly(
              "skippr local: port "
                  + ports[2]
                  + " on 127.0.0.1 is already in use (choose another"
                  + " with --rest-port)");
    }
  }

  @Test
  void unwritableDataDirIsAOneLineError() throws Exception {
    Path file = Files.writeString(dataDir.resolve("not-a-dir"), "x");
    CliProcess process = start("unwritable", file.resolve("data"), FreePorts.take(3));
    assertThat(process.awaitExit(Duration.ofSeconds(60))).isNotZero();
    assertThat(process.errorLines()).hasSize(1);
    assertThat(process.errorLines().get(0)).contains("is not writable");
  }

  private static Admin admin(int kafkaPort) {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + kafkaPort));
  }

  private static String get(String url) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  private CliProcess start(String name, Path data, int[] ports) throws IOException {
    return CliProcess.startLocal(
        name,
        logs,
        List.of(
            "--data-dir=" + data,
            "--kafka-port=" + ports[0],
            "--controller-port=" + ports[1],
            "--rest-port=" + ports[2]));
  }
}
