package io.skippr.connect.source.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.common.ProjectVersion;
import io.skippr.connect.source.http.config.HttpIngestConfig;
import io.skippr.connect.source.http.config.LimitsConfig;
import io.skippr.connect.source.http.config.ServerConfig;
import io.skippr.connect.source.http.config.TlsConfig;
import io.skippr.connect.source.http.metrics.IngestMetrics;
import io.skippr.connect.source.http.server.BodyReader;
import io.skippr.connect.source.http.server.ByteBudget;
import io.skippr.connect.source.http.server.JettyServers;
import io.skippr.connect.source.http.server.QueryParams;
import io.skippr.connect.source.http.server.TokenAuth;
import io.skippr.connect.source.http.server.UploadRefused;
import io.skippr.connect.source.http.server.UploadWatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The InfluxDB-compatible HTTP endpoints on Jetty: {@code POST /write} (v1), {@code POST
 * /api/v2/write}, {@code POST /api/v3/write_lp}, {@code POST /ingest/{stream}} (JSON), {@code GET
 * /ping} and {@code GET /health}. A write's body is read as it arrives ({@link BodyReader}, under
 * the request timeout and minimum data rate), then parsed on one of {@code server.threads} threads
 * ({@link WriteRequests}); the answer is written when the rows are durable. No thread waits on a
 * slow client or on Kafka.
 */
public final class IngestServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(IngestServer.class);
  private static final String JSON_PREFIX = "/ingest/";
  private static final HttpField BUILD = new HttpField("X-Influxdb-Build", "skippr-connect");
  private static final HttpField VERSION =
      new HttpField("X-Influxdb-Version", ProjectVersion.get());
  private static final ObjectMapper HEALTH = new ObjectMapper();

  private final TokenAuth auth;
  private final LimitsConfig.Values limits;
  private final boolean tls;
  private final int retryAfterSeconds;
  private final Lifecycle lifecycle;
  private final IngestMetrics metrics;
  private final ByteBudget budget;
  private final UploadWatch uploads;
  private final WriteRequests writes;
  private final Server server;

  /** A server (not listening until {@link #start()}). */
  IngestServer(
      HttpIngestConfig.Values settings,
      IngestService service,
      Lifecycle lifecycle,
      IngestMetrics metrics,
      ByteBudget budget) {
    ServerConfig.Values config = settings.server();
    TlsConfig.Values tlsConfig = settings.tls();
    this.auth = new TokenAuth(settings.auth().token());
    this.limits = settings.limits();
    this.tls = tlsConfig.enabled();
    this.retryAfterSeconds = settings.admission().retryAfterSeconds();
    this.lifecycle = lifecycle;
    this.metrics = metrics;
    this.budget = budget;
    this.uploads = new UploadWatch(config.requestTimeoutMs(), config.minBytesPerSecond());
    this.writes =
        new WriteRequests(
            service,
            limits,
            config.threads(),
            config.queueSize(),
            error -> lifecycle.fail("a request thread failed: " + error));
    this.server =
        JettyServers.create(
            config,
            tlsConfig,
            new Handler.Abstract(Handler.Abstract.InvocationType.NON_BLOCKING) {
              @Override
              public boolean handle(Request request, Response response, Callback callback) {
                return IngestServer.this.handle(request, response, callback);
              }
            });
  }

  /** Binds the port and starts serving; the cause names the address when the port is taken. */
  void start() throws Exception {
    server.start();
    LOG.info(
        "HTTP ingest listening on {}://{}:{} (Jetty {})",
        tls ? "https" : "http",
        server.getURI() == null ? "?" : server.getURI().getHost(),
        port(),
        Server.getVersion());
  }

  /** The bound port (useful when configured with 0). */
  public int port() {
    return JettyServers.port(server);
  }

  private boolean handle(Request request, Response response, Callback callback) {
    long received = System.nanoTime();
    Exchange exchange = new Exchange(request, response, callback, received);
    try {
      route(exchange);
    } catch (RuntimeException e) {
      LOG.error("Unexpected failure handling {} {}", request.getMethod(), request.getHttpURI(), e);
      exchange.answer(
          Responses.error(500, "internal error", "unexpected failure; retry the request"), true);
    }
    return true;
  }

  private void route(Exchange ex) {
    Request request = ex.request();
    if (tls && !request.isSecure()) {
      ex.answer(
          Responses.error(
              400, "https required", "this port speaks HTTPS only; use an https:// URL"),
          true);
      return;
    }
    String path = request.getHttpURI().getDecodedPath();
    String method = request.getMethod();
    switch (path) {
      case "/ping" -> ex.answer(isRead(method) ? Responses.noContent() : notAllowed(), false);
      case "/health" -> ex.answer(isRead(method) ? health() : notAllowed(), false);
      case "/write", "/api/v2/write", "/api/v3/write_lp" -> {
        if ("POST".equals(method)) {
          write(ex, path);
        } else {
          ex.answer(notAllowed(), false);
        }
      }
      default -> {
        if (path.startsWith(JSON_PREFIX) && path.length() > JSON_PREFIX.length()) {
          if ("POST".equals(method)) {
            write(ex, path);
          } else {
            ex.answer(notAllowed(), false);
          }
        } else {
          ex.answer(Responses.error(404, "not found", "no endpoint at " + path), false);
        }
      }
    }
  }

  private void write(Exchange ex, String path) {
    Request request = ex.request();
    Map<String, String> params = QueryParams.parse(request.getHttpURI().getQuery());
    if (!auth.allows(request.getHeaders().get(HttpHeader.AUTHORIZATION), params.get("p"))) {
      ex.answer(Responses.error(401, "unauthorized", "a valid token is required"), true);
      return;
    }
    if (!lifecycle.accepting()) {
      ex.answer(Responses.error(503, "unavailable", "the connector is not accepting writes"), true);
      return;
    }
    if (writes.saturated()) {
      ex.answer(writes.tooManyRequests(), true);
      return;
    }
    long length = request.getLength();
    if (length > limits.requestMaxBytes()) {
      ex.answer(
          Responses.error(
              413,
              "request too large",
              "request body larger than " + limits.requestMaxBytes() + " bytes"),
          true);
      return;
    }
    String encoding = request.getHeaders().get(HttpHeader.CONTENT_ENCODING);
    ex.write(true);
    new BodyReader(
            request,
            length,
            limits.requestMaxBytes(),
            budget,
            uploads,
            new BodyReader.Listener() {
              @Override
              public void body(BodyReader reader, byte[] body, int bodyLength) {
                metrics.bytesIn(bodyLength);
                // The body is in: waiting for Kafka may be long and idle, ack.timeout.ms bounds it.
                request.addIdleTimeoutListener(timeout -> false);
                writes.submit(
                    new WriteRequests.Write(ex, path, params, encoding, body, bodyLength, reader));
              }

              @Override
              public void refused(UploadRefused refusal) {
                ex.answer(Responses.error(refusal.status(), "refused", refusal.message()), true);
              }
            })
        .start();
  }

  /**
   * Why this server can no longer serve although the task did not stop it, or null: Jetty stopped
   * or failed, or the request threads stopped.
   */
  String fault() {
    if (!server.isRunning()) {
      return server.isFailed() ? "the HTTP server failed" : "the HTTP server stopped";
    }
    if (writes.stopped()) {
      return "the request threads stopped";
    }
    return null;
  }

  private WriteResult health() {
    boolean ok = lifecycle.accepting();
    ObjectNode body = HEALTH.createObjectNode();
    body.put("name", "skippr-http-ingest");
    body.put("status", ok ? "pass" : "fail");
    body.put(
        "message",
        ok
            ? "ready for writes"
            : lifecycle.failed()
                ? "failed: " + lifecycle.failure()
                : "not accepting writes (" + lifecycle.phase() + ")");
    body.put("version", ProjectVersion.get());
    return new WriteResult(ok ? 200 : 503, body.toString(), !ok);
  }

  private static WriteResult notAllowed() {
    return Responses.error(405, "method not allowed", "method not allowed");
  }

  private static boolean isRead(String method) {
    return "GET".equals(method) || "HEAD".equals(method);
  }

  /**
   * Answers every request in flight (503 for those not yet durable) and stops listening; returns
   * once the answers are written or {@link JettyServers#STOP_TIMEOUT_MS} has passed.
   */
  @Override
  public void close() {
    UploadRefused stopping = new UploadRefused(503, "the connector is stopping; retry the request");
    uploads.refuseAll(stopping);
    writes.close(stopping);
    try {
      server.stop();
    } catch (Exception e) {
      LOG.warn("HTTP ingest server did not stop cleanly: {}", e.toString());
    }
    uploads.close();
  }

  /** Uploads in progress (tests). */
  int uploadsInProgress() {
    return uploads.size();
  }

  /** One request and its answer; answers once. */
  final class Exchange {
    private final Request request;
    private final Response response;
    private final Callback callback;
    private final long receivedNanos;
    private boolean write;
    private boolean answered;

    Exchange(Request request, Response response, Callback callback, long receivedNanos) {
      this.request = request;
      this.response = response;
      this.callback = callback;
      this.receivedNanos = receivedNanos;
    }

    Request request() {
      return request;
    }

    void write(boolean isWrite) {
      this.write = isWrite;
    }

    /**
     * Writes the answer.
     *
     * @param close whether to close the connection after it (the body may be unread)
     */
    void answer(WriteResult result, boolean close) {
      synchronized (this) {
        if (answered) {
          return;
        }
        answered = true;
      }
      metrics.answered(result.status(), write, receivedNanos);
      response.setStatus(result.status());
      response.getHeaders().put(BUILD);
      response.getHeaders().put(VERSION);
      if (result.retryAfter()) {
        response.getHeaders().put(HttpHeader.RETRY_AFTER, Integer.toString(retryAfterSeconds));
      }
      if (close) {
        response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
      }
      if (result.body() == null || "HEAD".equals(request.getMethod())) {
        response.write(true, null, callback);
        return;
      }
      byte[] bytes = result.body().getBytes(StandardCharsets.UTF_8);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
      response.write(true, ByteBuffer.wrap(bytes), callback);
    }
  }
}
