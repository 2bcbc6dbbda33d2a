package io.skippr.connect.source.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.skippr.connect.source.http.config.LimitsConfig;
import io.skippr.connect.source.http.config.ServerConfig;
import io.skippr.connect.source.http.config.TopicNames;
import io.skippr.connect.source.http.server.MdcThreadFactory;
import io.skippr.connect.source.http.server.QueryParams;
import io.skippr.connect.source.http.server.RequestBody;
import io.skippr.connect.source.http.server.RequestTooLarge;
import io.skippr.connect.source.http.server.TokenAuth;
import io.skippr.connect.source.lineprotocol.Precision;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The InfluxDB-compatible HTTP endpoints over the JDK's built-in server ({@code
 * com.sun.net.httpserver}, part of every JDK, so the plugin adds no web framework): {@code POST
 * /write} (v1), {@code POST /api/v2/write}, {@code POST /api/v3/write_lp}, {@code POST
 * /ingest/{stream}} (JSON), {@code GET /ping} and {@code GET /health}.
 */
public final class IngestServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(IngestServer.class);
  private static final String JSON_PREFIX = "/ingest/";

  private final IngestService service;
  private final TokenAuth auth;
  private final LimitsConfig.Values limits;
  private final int retryAfterSeconds;
  private final HttpServer server;
  private final ExecutorService executor;
  private volatile boolean stopping;

  /** Binds and starts serving. */
  public IngestServer(
      ServerConfig.Values config,
      IngestService service,
      TokenAuth auth,
      LimitsConfig.Values limits,
      int retryAfterSeconds)
      throws IOException {
    this.service = service;
    this.auth = auth;
    this.limits = limits;
    this.retryAfterSeconds = retryAfterSeconds;
    this.server =
        HttpServer.create(new InetSocketAddress(config.bindAddress(), config.port()), 128);
    this.executor =
        new ThreadPoolExecutor(
            config.threads(),
            config.threads(),
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            new MdcThreadFactory("skippr-http-ingest"));
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
    LOG.info("HTTP ingest listening on {}", server.getAddress());
  }

  /** The bound port (useful when configured with 0). */
  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    stopping = true;
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange ex) {
    try {
      addCommonHeaders(ex);
      send(ex, route(ex));
    } catch (IOException e) {
      LOG.debug(
          "Could not answer {} {}: {}", ex.getRequestMethod(), ex.getRequestURI(), e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.error("Unexpected failure handling {} {}", ex.getRequestMethod(), ex.getRequestURI(), e);
      answerFailure(ex);
    } finally {
      ex.close();
    }
  }

  /** Best effort: a 500 if no answer has started yet (the client then retries). */
  private void answerFailure(HttpExchange ex) {
    try {
      send(ex, Responses.error(500, "internal error", "unexpected failure; retry the request"));
    } catch (IOException | RuntimeException ignored) {
      // an answer was already under way: closing the exchange ends it
    }
  }

  private WriteResult route(HttpExchange ex) throws IOException, InterruptedException {
    String path = ex.getRequestURI().getPath();
    String method = ex.getRequestMethod();
    switch (path) {
      case "/ping":
        return isRead(method) ? Responses.noContent() : notAllowed();
      case "/health":
        return isRead(method) ? health() : notAllowed();
      case "/write", "/api/v2/write", "/api/v3/write_lp":
        return "POST".equals(method) ? write(ex, path) : notAllowed();
      default:
        if (path.startsWith(JSON_PREFIX) && path.length() > JSON_PREFIX.length()) {
          return "POST".equals(method) ? write(ex, path) : notAllowed();
        }
        return Responses.error(404, "not found", "no endpoint at " + path);
    }
  }

  private WriteResult write(HttpExchange ex, String path) throws IOException, InterruptedException {
    Map<String, String> params = QueryParams.parse(ex.getRequestURI().getRawQuery());
    if (!auth.allows(ex.getRequestHeaders().getFirst("Authorization"), params.get("p"))) {
      return Responses.error(401, "unauthorized", "a valid token is required");
    }
    if (stopping) {
      return Responses.error(503, "unavailable", "the connector is stopping");
    }
    if (service.saturated()) {
      return service.tooManyRequests();
    }
    try {
      RequestBody body =
          RequestBody.open(
              ex.getRequestBody(),
              ex.getRequestHeaders().getFirst("Content-Length"),
              ex.getRequestHeaders().getFirst("Content-Encoding"),
              limits);
      return path.startsWith(JSON_PREFIX)
          ? writeJson(body, path)
          : writeLineProtocol(body, path, params);
    } catch (RequestTooLarge e) {
      return Responses.error(413, "request too large", e.getMessage());
    } catch (IllegalArgumentException e) {
      return Responses.error(400, "invalid", e.getMessage());
    } catch (IOException e) {
      return Responses.error(400, "invalid", "could not read the request body: " + e.getMessage());
    }
  }

  private WriteResult writeLineProtocol(RequestBody body, String path, Map<String, String> params)
      throws IOException, InterruptedException {
    boolean v3 = path.equals("/api/v3/write_lp");
    String precisionText = params.getOrDefault("precision", v3 ? "auto" : "ns");
    Optional<Precision> precision = Precision.parse(precisionText);
    if (precision.isEmpty()) {
      return Responses.error(400, "invalid", "invalid precision '" + precisionText + "'");
    }
    String database = path.equals("/api/v2/write") ? params.get("bucket") : params.get("db");
    boolean acceptPartial = !v3 || !"false".equalsIgnoreCase(params.get("accept_partial"));
    return service.writeLineProtocol(body, path, precision.get(), database, acceptPartial);
  }

  private WriteResult writeJson(RequestBody body, String path)
      throws IOException, InterruptedException {
    String stream = path.substring(JSON_PREFIX.length());
    if (stream.startsWith("_") || !TopicNames.isLegal(stream)) {
      return Responses.error(
          400,
          "invalid",
          "stream name must be 1-249 ASCII letters, digits, '.', '_' or '-', not starting with '_'");
    }
    return service.writeJson(body, path, stream);
  }

  private WriteResult health() {
    boolean ok = !stopping;
    String body =
        "{\"name\":\"skippr-http-ingest\",\"status\":\""
            + (ok ? "pass" : "fail")
            + "\",\"message\":\""
            + (ok ? "ready for writes" : "stopping")
            + "\",\"version\":\""
            + Version.get()
            + "\"}";
    return new WriteResult(ok ? 200 : 503, body, false);
  }

  private static WriteResult notAllowed() {
    return Responses.error(405, "method not allowed", "method not allowed");
  }

  private static boolean isRead(String method) {
    return "GET".equals(method) || "HEAD".equals(method);
  }

  private static void addCommonHeaders(HttpExchange ex) {
    ex.getResponseHeaders().set("X-Influxdb-Build", "skippr-connect");
    ex.getResponseHeaders().set("X-Influxdb-Version", Version.get());
  }

  private void send(HttpExchange ex, WriteResult result) throws IOException {
    if (result.retryAfter()) {
      ex.getResponseHeaders().set("Retry-After", Integer.toString(retryAfterSeconds));
    }
    if (result.body() == null || "HEAD".equals(ex.getRequestMethod())) {
      ex.sendResponseHeaders(result.status(), -1);
      return;
    }
    byte[] bytes = result.body().getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    ex.sendResponseHeaders(result.status(), bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }
}
