package io.skippr.connect.testkit.pollapi;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.skippr.connect.common.MdcThreadFactory;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A REST JSON API for testing the HTTP poll source, on 127.0.0.1 (an ephemeral port): the listings
 * of {@link FixturePages} over {@link FixtureItems}, an OAuth2 token endpoint that rotates refresh
 * tokens ({@code POST /oauth/token}, {@link FixtureOAuth}), optional basic or bearer auth, and
 * scripted faults: status storms (429 with {@code Retry-After}, 5xx), bodies that are not JSON, any
 * answer a test scripts, and requests held open until released (to kill a worker mid-request).
 * Every data request is logged.
 */
public final class PollFixtureApi implements AutoCloseable {

  /** One answered data request and when it arrived. */
  public record Served(
      String method, String path, Map<String, String> query, int status, Instant arrived) {}

  /** A data request held open until {@link #release()}. */
  public static final class Hold {
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    /** Waits until a request is being held. */
    public boolean awaitHeld(long timeout, TimeUnit unit) throws InterruptedException {
      return held.await(timeout, unit);
    }

    public void release() {
      released.countDown();
    }
  }

  private interface Fault {}

  private record StatusFault(int status, String retryAfter) implements Fault {}

  /** A scripted answer: status, headers and body, whatever the request. */
  private record AnswerFault(int status, Map<String, String> headers, byte[] body)
      implements Fault {}

  private record HoldFault(Hold hold) implements Fault {}

  private final HttpServer server;
  private final ExecutorService executor;
  private final FixtureItems items;
  private final FixturePages pages;
  private final List<Fault> faults = new ArrayList<>();
  private final List<Served> served = new CopyOnWriteArrayList<>();
  private final List<Consumer<Served>> afterPage = new CopyOnWriteArrayList<>();
  private final List<Consumer<String>> beforeData = new CopyOnWriteArrayList<>();
  private volatile String requiredAuthorization;
  private volatile FixtureOAuth oauth;
  private volatile long pageDelayMillis;

  private PollFixtureApi(int perSecond) throws IOException {
    items = new FixtureItems(perSecond);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    pages = new FixturePages(items, "http://127.0.0.1:" + server.getAddress().getPort());
    executor = Executors.newFixedThreadPool(8, new MdcThreadFactory("poll-fixture-api"));
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Starts an empty API whose records share a timestamp {@code perSecond} at a time. */
  public static PollFixtureApi start(int perSecond) throws IOException {
    return new PollFixtureApi(perSecond);
  }

  /** {@code http://127.0.0.1:<port>} + path. */
  public String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  public FixtureItems items() {
    return items;
  }

  /** Appends {@code count} records; returns their ids. */
  public List<Long> add(int count) {
    return items.add(count);
  }

  /** Data requests need {@code Authorization: Bearer <token>}. */
  public void requireBearer(String token) {
    requiredAuthorization = "Bearer " + token;
  }

  /** Data requests need HTTP basic auth. */
  public void requireBasic(String user, String password) {
    requiredAuthorization =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /** Data requests need an access token from {@code /oauth/token}; returns the token endpoint. */
  public FixtureOAuth requireOAuth(String clientId, String clientSecret, String refreshToken) {
    oauth = new FixtureOAuth(clientId, clientSecret, refreshToken, Clock.systemUTC());
    return oauth;
  }

  public FixtureOAuth oauth() {
    return oauth;
  }

  /** The next {@code n} data requests get {@code status}, with Retry-After when not null. */
  public synchronized void failNext(int n, int status, String retryAfter) {
    for (int i = 0; i < n; i++) {
      faults.add(new StatusFault(status, retryAfter));
    }
  }

  /** The next data request gets 200 with an HTML body. */
  public void nonJsonNext() {
    answerNext(
        200,
        Map.of(),
        "<html><body>Service temporarily moved</body></html>".getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The next data request gets this answer, whatever it asks for: hostile pages, headers and bodies
   * for the fuzz tests.
   */
  public synchronized void answerNext(int status, Map<String, String> headers, byte[] body) {
    faults.add(new AnswerFault(status, Map.copyOf(headers), body.clone()));
  }

  /** The next data request is held open until the returned hold is released. */
  public synchronized Hold holdNext() {
    Hold hold = new Hold();
    faults.add(new HoldFault(hold));
    return hold;
  }

  /** Each page takes this long to answer (a slow API). */
  public void pageDelayMillis(long millis) {
    pageDelayMillis = millis;
  }

  /** Runs {@code hook} after each page was sent (in the server's thread). */
  public void afterEachPage(Consumer<Served> hook) {
    afterPage.add(hook);
  }

  /**
   * Runs {@code hook} with the Authorization header (null when absent) of each data request that
   * passed authentication, before it is answered (in the server's thread).
   */
  public void beforeEachData(Consumer<String> hook) {
    beforeData.add(hook);
  }

  /** Every data request answered so far, in order. */
  public List<Served> served() {
    return List.copyOf(served);
  }

  /** Data requests answered with 200. */
  public long pagesServed() {
    return served.stream().filter(s -> s.status() == 200).count();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      if (path.equals("/oauth/token")) {
        FixtureOAuth.Answer answer =
            oauth == null
                ? new FixtureOAuth.Answer(404, "{\"error\":\"no token endpoint\"}")
                : oauth.token(exchange.getRequestHeaders().getFirst("Authorization"), body);
        respond(exchange, answer.status(), answer.body(), null);
        return;
      }
      serveData(exchange, path, body);
    }
  }

  private void serveData(HttpExchange exchange, String path, String body) throws IOException {
    Instant arrived = Instant.now();
    Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
    String method = exchange.getRequestMethod();
    if (!authorized(exchange.getRequestHeaders().getFirst("Authorization"))) {
      record(method, path, query, arrived, 401);
      respond(exchange, 401, "{\"error\":\"unauthorized\"}", null);
      return;
    }
    String authorization = exchange.getRequestHeaders().getFirst("Authorization");
    beforeData.forEach(hook -> hook.accept(authorization));
    Fault fault = nextFault();
    if (fault instanceof HoldFault h) {
      h.hold().held.countDown();
      awaitQuietly(h.hold().released);
    } else if (fault instanceof StatusFault s) {
      record(method, path, query, arrived, s.status());
      if (s.retryAfter() != null) {
        exchange.getResponseHeaders().add("Retry-After", s.retryAfter());
      }
      respond(exchange, s.status(), "{\"error\":\"status " + s.status() + "\"}", null);
      return;
    } else if (fault instanceof AnswerFault a) {
      record(method, path, query, arrived, a.status());
      a.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
      respond(exchange, a.status(), a.body(), null);
      return;
    }
    FixturePages.Page page = pages.page(path, query, body);
    if (page == null) {
      record(method, path, query, arrived, 404);
      respond(exchange, 404, "{\"error\":\"no such listing\"}", null);
      return;
    }
    pause(pageDelayMillis);
    // Recorded before the answer: once a client has a page, served() lists it.
    Served s = record(method, path, query, arrived, 200);
    respond(exchange, 200, page.body(), page.link());
    afterPage.forEach(hook -> hook.accept(s));
  }

  private boolean authorized(String authorization) {
    FixtureOAuth o = oauth;
    if (o != null) {
      return authorization != null
          && authorization.startsWith("Bearer ")
          && o.validAccessToken(authorization.substring(7));
    }
    String required = requiredAuthorization;
    return required == null || required.equals(authorization);
  }

  private synchronized Fault nextFault() {
    return faults.isEmpty() ? null : faults.remove(0);
  }

  private Served record(
      String method, String path, Map<String, String> query, Instant arrived, int status) {
    Served s = new Served(method, path, query, status, arrived);
    served.add(s);
    return s;
  }

  private static void respond(HttpExchange exchange, int status, String body, String link)
      throws IOException {
    respond(exchange, status, body.getBytes(StandardCharsets.UTF_8), link);
  }

  private static void respond(HttpExchange exchange, int status, byte[] bytes, String link)
      throws IOException {
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    if (link != null) {
      exchange.getResponseHeaders().add("Link", link);
    }
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> query = new HashMap<>();
    if (raw == null) {
      return query;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      query.put(
          URLDecoder.decode(key, StandardCharsets.UTF_8),
          URLDecoder.decode(value, StandardCharsets.UTF_8));
    }
    return query;
  }

  private static void pause(long millis) {
    if (millis > 0) {
      try {
        Thread.sleep(millis); // the API being slow, not a test waiting
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(5, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    synchronized (this) {
      for (Fault f : faults) {
        if (f instanceof HoldFault h) {
          h.hold().release();
        }
      }
    }
    server.stop(0);
    executor.shutdownNow();
  }
}
