package io.skippr.connect.source.poll.engine;

import io.skippr.connect.source.poll.auth.Authenticator;
import io.skippr.connect.source.poll.auth.OAuth2Authenticator;
import io.skippr.connect.source.poll.config.EndpointSettings;
import io.skippr.connect.source.poll.config.PollAuthConfig;
import io.skippr.connect.source.poll.cursor.Dedup;
import io.skippr.connect.source.poll.cursor.Position;
import io.skippr.connect.source.poll.cursor.PositionCodec;
import io.skippr.connect.source.poll.http.Backoff;
import io.skippr.connect.source.poll.http.HttpExchanger;
import io.skippr.connect.source.poll.metrics.PollMetrics;
import io.skippr.connect.source.poll.page.Pagination;
import io.skippr.connect.source.poll.state.PollState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A task's endpoints, wired up and resumed: what {@code HttpPollSourceTask} delegates to. */
public final class PollEngine implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PollEngine.class);

  private final HttpExchanger http;
  private final PollLoop loop;

  private PollEngine(HttpExchanger http, PollLoop loop) {
    this.http = http;
    this.loop = loop;
  }

  /** Resumes every endpoint from Kafka, the state store or {@code cursor.initial}. */
  public static PollEngine start(
      List<EndpointSettings> endpoints,
      PollState state,
      OffsetStorageReader kafka,
      PollMetrics metrics) {
    long timeout = endpoints.stream().mapToLong(e -> e.request().timeoutMs()).max().orElse(30_000);
    HttpExchanger http = new HttpExchanger(timeout);
    List<EndpointPoller> pollers = new ArrayList<>();
    for (EndpointSettings e : endpoints) {
      PollState.Resume resume = state.resume(e, kafka);
      Position start =
          resume
              .offset()
              .map(o -> position(e, o))
              .orElseGet(() -> Position.initial(e.cursor().initial()));
      LOG.info(
          "Endpoint {}: {} ({})",
          e.name(),
          resume.offset().isPresent() ? "resuming at " + start : "starting at cursor.initial",
          switch (resume.source()) {
            case KAFKA -> "offset from Kafka";
            case STATE_STORE -> "Kafka has no offset; offset from the state store";
            case NONE -> state.mirrored() ? "no offset in Kafka or the state store" : "no offset";
          });
      metrics.endpoint(e.name());
      Authenticator auth = authenticator(e, state, http, metrics);
      EndpointParts parts =
          new EndpointParts(
              new PageFetcher(e, auth, http, metrics),
              Pagination.of(e.pagination()),
              new PageRecords(e, new Dedup(e.cursor())),
              auth,
              new Backoff(
                  e.pacing().backoffMs(),
                  e.pacing().backoffMaxMs(),
                  () -> ThreadLocalRandom.current().nextDouble()));
      pollers.add(new EndpointPoller(e, start, parts, metrics, System::nanoTime));
    }
    return new PollEngine(http, new PollLoop(pollers, System::nanoTime));
  }

  private static Position position(EndpointSettings e, Map<String, Object> offset) {
    try {
      return PositionCodec.fromOffset(offset);
    } catch (ConnectException ex) {
      throw new ConnectException(
          "Endpoint "
              + e.name()
              + ": the stored offset "
              + offset
              + " is unusable: "
              + ex.getMessage(),
          ex);
    }
  }

  static Authenticator authenticator(
      EndpointSettings e, PollState state, HttpExchanger http, PollMetrics metrics) {
    PollAuthConfig.Values a = e.auth();
    return switch (a.type()) {
      case NONE -> Authenticator.NONE;
      case BASIC -> Authenticator.basic(a.username(), a.password());
      case BEARER -> Authenticator.bearer(a.bearerToken());
      case OAUTH2 ->
          new OAuth2Authenticator(
              a.oauth2(),
              state.scope().encoded(),
              a.oauth2().grant() == PollAuthConfig.Grant.REFRESH_TOKEN
                  ? state.refreshTokens(a.oauth2(), e.request().timeoutMs())
                  : null,
              http,
              e.request().timeoutMs(),
              System::nanoTime,
              () -> metrics.tokenRefresh(e.name()));
    };
  }

  public List<SourceRecord> poll() throws InterruptedException {
    return loop.poll();
  }

  public List<EndpointPoller> pollers() {
    return loop.pollers();
  }

  /** Whether every endpoint read everything there is and waits for its next pass. */
  public boolean caughtUp() {
    return loop.caughtUp();
  }

  /** Ends waits and cancels the request in flight (from another thread than poll). */
  public void stop() {
    loop.stop();
    http.close();
  }

  @Override
  public void close() {
    stop();
  }
}
