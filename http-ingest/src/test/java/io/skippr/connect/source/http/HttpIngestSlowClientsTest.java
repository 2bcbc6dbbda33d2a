package io.skippr.connect.source.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * 256 stalled uploads (a 100,000-byte body announced, 5 bytes sent) and 256 slow ones (one byte per
 * second) neither keep a normal client from being answered within a second nor stay open: the
 * stalled ones are answered 408 and closed once the idle timeout passes, the slow ones once the
 * request timeout passes, or — with the minimum data rate on — within about a second.
 */
class HttpIngestSlowClientsTest {

  private static final int STALLED = 256;
  private static final int SLOW = 256;
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @Test
  void stalledAndSlowUploadsBlockNobodyAndAreClosedAfterTheirTimeouts() throws Exception {
    Map<String, String> props =
        Map.of(
            "server.idle.timeout.ms", "3000",
            "server.request.timeout.ms", "8000",
            "server.request.min.bytes.per.second", "0");
    try (TaskHarness h = new TaskHarness(props);
        RawUploads raw = new RawUploads(h.port())) {
      List<RawUploads.Upload> stalled = raw.stalled(STALLED);
      List<RawUploads.Upload> slow = raw.slow(SLOW);
      Await.until(
          Duration.ofSeconds(30),
          "the server to receive all 512 uploads",
          () -> TaskJmx.metric("uploads-in-progress") == STALLED + SLOW);

      long worst = normalWritesAnsweredWithinASecond(h, 5);
      assertThat(TaskJmx.metric("uploads-in-progress")).isEqualTo(STALLED + SLOW);

      for (RawUploads.Upload upload : stalled) {
        assertThat(upload.statusThenClose(Duration.ofSeconds(30))).isEqualTo(408);
        assertThat(elapsedMs(upload)).isGreaterThanOrEqualTo(2_500);
      }
      for (RawUploads.Upload upload : slow) {
        assertThat(upload.statusThenClose(Duration.ofSeconds(30))).isEqualTo(408);
        assertThat(elapsedMs(upload)).isGreaterThanOrEqualTo(7_500);
      }
      assertThat(TaskJmx.metric("uploads-in-progress")).isZero();
      assertThat(h.sentTo("lp.m")).hasSize(5);
      System.out.printf(
          "slow clients: %d stalled + %d slow uploads open, slowest normal write %d ms%n",
          STALLED, SLOW, worst);
    }
  }

  @Test
  void belowTheMinimumDataRateAnUploadIsAnswered408WithinAboutASecond() throws Exception {
    try (TaskHarness h = new TaskHarness(Map.of());
        RawUploads raw = new RawUploads(h.port())) {
      List<RawUploads.Upload> slow = raw.slow(SLOW);
      normalWritesAnsweredWithinASecond(h, 3);
      for (RawUploads.Upload upload : slow) {
        String answer = upload.readAll(Duration.ofSeconds(30));
        assertThat(answer)
            .startsWith("HTTP/1.1 408")
            .contains("Connection: close")
            .contains("arrived slower than 1024 bytes per second");
        assertThat(elapsedMs(upload)).isBetween(900L, 10_000L);
      }
    }
  }

  /** The slowest of {@code count} one-row writes, each required to get 204 within a second. */
  private static long normalWritesAnsweredWithinASecond(TaskHarness h, int count) throws Exception {
    long worst = 0;
    for (int i = 0; i < count; i++) {
      HttpRequest write =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + h.port() + "/write"))
              .timeout(Duration.ofSeconds(1))
              .POST(HttpRequest.BodyPublishers.ofString("m v=" + i))
              .build();
      long start = System.nanoTime();
      HttpResponse<String> response = CLIENT.send(write, HttpResponse.BodyHandlers.ofString());
      worst = Math.max(worst, (System.nanoTime() - start) / 1_000_000);
      assertThat(response.statusCode()).as(response.body()).isEqualTo(204);
    }
    return worst;
  }

  private static long elapsedMs(RawUploads.Upload upload) {
    return (System.nanoTime() - upload.openedNanos) / 1_000_000;
  }
}
