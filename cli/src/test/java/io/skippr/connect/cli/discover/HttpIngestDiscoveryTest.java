package io.skippr.connect.cli.discover;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.ContractStore;
import io.skippr.connect.schema.PipelineId;
import io.skippr.connect.schema.Schemas;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Discovery against the real HTTP ingest source: rows pushed as JSON and as line protocol while
 * {@code discover} samples become one contract. Sample mode never acknowledges a write (nothing
 * reached Kafka), so the clients' requests are left unanswered and abandoned.
 */
class HttpIngestDiscoveryTest {
  @TempDir Path dir;

  @Test
  void pushedJsonAndLineProtocolRowsBecomeOneContract() throws Exception {
    int port = freePort();
    Path yml = dir.resolve("skippr.yml");
    Files.writeString(
        yml,
        String.join(
            "\n",
            "pipelines:",
            "  metrics:",
            "    source:",
            "      class: io.skippr.connect.source.http.HttpIngestSourceConnector",
            "      config:",
            "        server: {bind.address: 127.0.0.1, port: " + port + "}",
            "        topic: ingest",
            ""));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new DiscoverCommand(Map.of(), dir));
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () ->
                cli.execute(
                    "--pipeline",
                    "metrics",
                    "--config",
                    yml.toString(),
                    "--data-dir",
                    dir.resolve("data").toString(),
                    "--plugin-dir",
                    dir.resolve("no-plugins").toString(),
                    "--sample",
                    "4",
                    "--timeout",
                    "60"));

    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    awaitPing(http, port, exit);
    List<CompletableFuture<HttpResponse<String>>> pending = new ArrayList<>();
    pending.add(
        post(
            http,
            port,
            "/ingest/hosts",
            "[{\"host\":\"a\",\"cpu\":0.5,\"at\":\"2024-05-01T12:00:00Z\"},{\"host\":\"b\",\"cpu\":1}]"));
    pending.add(
        post(
            http,
            port,
            "/write?db=telemetry",
            "cpu,host=c usage=0.7 1714564800000000000\ncpu,host=d usage=0.9 1714564801000000000\n"));

    assertThat(exit.get(90, TimeUnit.SECONDS)).as(err.toString()).isZero();
    pending.forEach(p -> p.cancel(true));
    List<Contract> saved = new ContractStore(dir.resolve("data")).load(PipelineId.of("metrics"));
    assertThat(saved).extracting(Contract::namespace).containsExactly("ingest");
    List<String> fields = new ArrayList<>();
    for (Field field : saved.get(0).fields()) {
      fields.add(field.name() + "=" + Schemas.typeName(field.schema()));
    }
    assertThat(fields)
        .containsExactly(
            "at=timestamp",
            "cpu=double",
            "host=string",
            "time=timestamp",
            "time_ns=int64",
            "usage=double");
    assertThat(out.toString()).startsWith("pipeline default/default/metrics: sampled 4 records");
  }

  private static void awaitPing(HttpClient http, int port, CompletableFuture<Integer> exit)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      assertThat(exit.isDone()).as("discover ended before the source listened").isFalse();
      try {
        HttpResponse<Void> ping =
            http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ping")).build(),
                HttpResponse.BodyHandlers.discarding());
        if (ping.statusCode() == 204) {
          return;
        }
      } catch (IOException notListeningYet) {
        // the task has not bound its port yet
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the HTTP ingest source did not listen on " + port + " in 30 s");
  }

  private static CompletableFuture<HttpResponse<String>> post(
      HttpClient http, int port, String path, String body) {
    return http.sendAsync(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
