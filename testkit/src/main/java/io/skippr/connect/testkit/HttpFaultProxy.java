package io.skippr.connect.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * An HTTP/1.1 proxy on 127.0.0.1 in front of a test server that fails a chosen fraction of
 * requests, the ways networks and S3 fail: some before the request reaches the server (nothing
 * happened), some after (the effect happened but the client never learns it). Faults are drawn from
 * a seeded random sequence, so a run is repeatable in what it injects. It also records every
 * request's line and headers ({@link #seen()}), and a {@link #gate} can refuse requests as a
 * server's policy would (a bucket policy demanding encryption, expired credentials).
 */
public final class HttpFaultProxy implements AutoCloseable {

  /** What can go wrong with one request. */
  public enum Fault {
    /** 503 SlowDown; the request is not forwarded. */
    UNAVAILABLE_BEFORE,
    /** The request is forwarded, then answered with 500 InternalError instead of its response. */
    ERROR_AFTER,
    /** The connection is closed without an answer; the request is not forwarded. */
    RESET_BEFORE,
    /** The request is forwarded, then no answer comes until the client times out. */
    TIMEOUT_AFTER
  }

  /**
   * A request as the proxy received it.
   *
   * @param target the path and query, as sent
   * @param headers the headers, names in lower case
   */
  public record Seen(String method, String target, Map<String, List<String>> headers) {
    /** The first value of a header, or null. */
    public String header(String name) {
      List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
      return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** The access key id of its SigV4 signature, or null when unsigned. */
    public String accessKeyId() {
      return StsTestServer.accessKeyIdOf(header("authorization"));
    }

    /** {@code METHOD /path?query}. */
    public String line() {
      return method + " " + target;
    }
  }

  /** How a {@link #gate} refuses a request: an S3-style error answer. */
  public record Refusal(int status, String code, String message) {}

  private static final Set<String> HOP_BY_HOP =
      Set.of("connection", "content-length", "expect", "host", "upgrade", "transfer-encoding");

  private final HttpServer server;
  private final ExecutorService threads;
  private final HttpClient client;
  private final URI target;
  private final Duration hang;
  private final Random random;
  private final Map<Fault, AtomicInteger> injected = new EnumMap<>(Fault.class);
  private final AtomicInteger requests = new AtomicInteger();
  private volatile double rate;
  private volatile List<Fault> faults = List.of(Fault.values());
  private volatile Predicate<String> only = request -> true;
  private volatile int limit = Integer.MAX_VALUE;
  private volatile boolean serialized;
  private volatile Function<Seen, Refusal> gate = request -> null;
  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final Object serial = new Object();

  private HttpFaultProxy(URI target, double rate, long seed, Duration hang) throws IOException {
    this.target = target;
    this.rate = rate;
    this.hang = hang;
    this.random = new Random(seed);
    for (Fault fault : Fault.values()) {
      injected.put(fault, new AtomicInteger());
    }
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    this.server = LoopbackHttpServer.start("http-fault-proxy", 8, this::handle);
    this.threads = LoopbackHttpServer.threads(server);
  }

  /**
   * Starts a proxy to {@code target}.
   *
   * @param rate fraction of requests that fail, 0 to 1
   * @param seed seed of the random choices
   * @param hang how long a {@link Fault#TIMEOUT_AFTER} holds the answer back; longer than the
   *     client's read timeout
   */
  public static HttpFaultProxy start(URI target, double rate, long seed, Duration hang) {
    try {
      return new HttpFaultProxy(target, rate, seed, hang);
    } catch (IOException e) {
      throw new IllegalStateException("cannot start the fault proxy", e);
    }
  }

  public URI endpoint() {
    return URI.create("http://" + LocalProcesses.LOOPBACK + ":" + server.getAddress().getPort());
  }

  /**
   * Forwards one request at a time, so the server applies each request atomically as S3 does
   * (S3Mock lets an overwrite overlap reads and the conditional checks of other writes to the same
   * key); clients still interleave their requests freely.
   */
  public HttpFaultProxy serialized(boolean on) {
    this.serialized = on;
    return this;
  }

  /** Changes the fraction of requests that fail. */
  public HttpFaultProxy rate(double rate) {
    this.rate = rate;
    return this;
  }

  /** Injects only these faults from now on. */
  public HttpFaultProxy faults(Fault... faults) {
    this.faults = List.of(faults);
    return this;
  }

  /**
   * Injects faults only into requests whose line ({@code "METHOD /path?query"}) matches.
   *
   * @return this
   */
  public HttpFaultProxy only(Predicate<String> requestLine) {
    this.only = requestLine;
    return this;
  }

  /**
   * Injects at most {@code faults} faults in all.
   *
   * @return this
   */
  public HttpFaultProxy limit(int faults) {
    this.limit = faults;
    return this;
  }

  /**
   * Refuses the requests for which {@code policy} answers a refusal (null lets one through), before
   * any fault is drawn.
   *
   * @return this
   */
  public HttpFaultProxy gate(Function<Seen, Refusal> policy) {
    this.gate = policy;
    return this;
  }

  /** Every request received so far, refused ones included, in order of arrival. */
  public List<Seen> seen() {
    return List.copyOf(seen);
  }

  /** How many times a fault was injected. */
  public int injected(Fault fault) {
    return injected.get(fault).get();
  }

  /** Faults injected in all. */
  public int injected() {
    return injected.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  /** Requests received in all. */
  public int requests() {
    return requests.get();
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
    try {
      threads.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    requests.incrementAndGet();
    byte[] body;
    try (InputStream in = exchange.getRequestBody()) {
      body = in.readAllBytes();
    }
    Refusal refusal = record(exchange);
    if (refusal != null) {
      respondError(exchange, refusal.status(), refusal.code(), refusal.message());
      return;
    }
    Fault fault =
        draw(
            exchange.getRequestMethod()
                + " "
                + exchange.getRequestURI().getRawPath()
                + (exchange.getRequestURI().getRawQuery() == null
                    ? ""
                    : "?" + exchange.getRequestURI().getRawQuery()));
    try {
      if (fault == Fault.UNAVAILABLE_BEFORE) {
        respondError(exchange, 503, "SlowDown", "Please reduce your request rate.");
        return;
      }
      if (fault == Fault.RESET_BEFORE) {
        exchange.close(); // before any response: the connection goes away unanswered
        return;
      }
      HttpResponse<byte[]> response;
      if (serialized) {
        synchronized (serial) {
          response = forward(exchange, body);
        }
      } else {
        response = forward(exchange, body);
      }
      if (fault == Fault.ERROR_AFTER) {
        respondError(exchange, 500, "InternalError", "We encountered an internal error.");
      } else if (fault == Fault.TIMEOUT_AFTER) {
        Thread.sleep(hang.toMillis());
        exchange.close();
      } else {
        relay(exchange, response);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      exchange.close();
    } catch (IOException | RuntimeException e) {
      respondError(exchange, 502, "BadGateway", "proxy: " + e);
    }
  }

  private Refusal record(HttpExchange exchange) {
    Map<String, List<String>> headers = new TreeMap<>();
    exchange
        .getRequestHeaders()
        .forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
    Seen request =
        new Seen(
            exchange.getRequestMethod(),
            exchange.getRequestURI().toString(),
            Collections.unmodifiableMap(headers));
    seen.add(request);
    return gate.apply(request);
  }

  private Fault draw(String requestLine) {
    synchronized (random) {
      List<Fault> choices = faults;
      if (choices.isEmpty() || injected() >= limit || !only.test(requestLine)) {
        return null;
      }
      if (random.nextDouble() >= rate) {
        return null;
      }
      Fault fault = choices.get(random.nextInt(choices.size()));
      injected.get(fault).incrementAndGet();
      return fault;
    }
  }

  private HttpResponse<byte[]> forward(HttpExchange exchange, byte[] body)
      throws IOException, InterruptedException {
    URI uri = URI.create(target.toString() + exchange.getRequestURI().toString());
    String method = exchange.getRequestMethod();
    HttpRequest.BodyPublisher publisher =
        body.length == 0 && Set.of("GET", "HEAD", "DELETE").contains(method)
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri).method(method, publisher).timeout(Duration.ofSeconds(60));
    exchange
        .getRequestHeaders()
        .forEach(
            (name, values) -> {
              if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(value -> request.header(name, value));
              }
            });
    return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static void relay(HttpExchange exchange, HttpResponse<byte[]> response)
      throws IOException {
    response
        .headers()
        .map()
        .forEach(
            (name, values) -> {
              if (!name.startsWith(":") && !HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                exchange.getResponseHeaders().put(name, values);
              }
            });
    byte[] body = response.body();
    boolean head = exchange.getRequestMethod().equals("HEAD");
    if (head) {
      // A HEAD answer's length is the object's: S3 clients read it.
      response
          .headers()
          .firstValue("content-length")
          .ifPresent(length -> exchange.getResponseHeaders().set("Content-Length", length));
    }
    boolean noBody = body.length == 0 || head;
    exchange.sendResponseHeaders(response.statusCode(), noBody ? -1 : body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      if (!noBody) {
        out.write(body);
      }
    }
  }

  private static void respondError(HttpExchange exchange, int status, String code, String message)
      throws IOException {
    byte[] xml =
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
                + code
                + "</Code><Message>"
                + message.replace("&", "&amp;").replace("<", "&lt;")
                + "</Message></Error>")
            .getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/xml");
    boolean head = exchange.getRequestMethod().equals("HEAD");
    exchange.sendResponseHeaders(status, head ? -1 : xml.length);
    try (OutputStream out = exchange.getResponseBody()) {
      if (!head) {
        out.write(xml);
      }
    }
  }
}
