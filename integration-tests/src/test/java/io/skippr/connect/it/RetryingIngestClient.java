package io.skippr.connect.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntFunction;

/**
 * Clients that write like Telegraf: each sends requests one after another (as fast as it can, or
 * {@link #paced} at most one every so often) and retries a request (the same body) on 5xx, 429, a
 * timeout or a refused connection, after a short backoff, until it gets 204 — possibly at another
 * endpoint. The requests are {@link #lineProtocol} or {@link #json}; every row is unique by its
 * {@code client}, {@code req} and {@code row}. Records which rows got 204 (or, {@link
 * #countingOnly}, how many requests of each client did) and which requests were sent more than
 * once.
 */
final class RetryingIngestClient implements AutoCloseable {

  /** Where a client sends an attempt: attempt number → base URL. */
  interface Endpoints {
    String url(int client, int attempt);
  }

  /** What the clients send: the path and query of every request, and each request's body. */
  interface Requests {
    String path();

    String body(int client, int request, int rows);
  }

  private final Requests requests;
  private final int clients;
  private final int rowsPerRequest;
  private final Endpoints endpoints;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicLong acknowledgedRows = new AtomicLong();
  private final AtomicLong attempts = new AtomicLong();
  private final AtomicLong retries = new AtomicLong();
  private final AtomicLong acknowledgedAfterMark = new AtomicLong();
  private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
  private final AtomicLongArray acknowledgedRequests;
  private final Set<Long> retried = ConcurrentHashMap.newKeySet();
  private final List<Thread> threads = new ArrayList<>();
  private final List<Throwable> failures = new ArrayList<>();
  private Duration pace = Duration.ZERO;
  private boolean identities = true;

  /** Clients sending line protocol rows of {@code measurement}. */
  RetryingIngestClient(String measurement, int clients, int rowsPerRequest, Endpoints endpoints) {
    this(lineProtocol(measurement, clients, rowsPerRequest), clients, rowsPerRequest, endpoints);
  }

  RetryingIngestClient(Requests requests, int clients, int rowsPerRequest, Endpoints endpoints) {
    this.requests = requests;
    this.clients = clients;
    this.rowsPerRequest = rowsPerRequest;
    this.endpoints = endpoints;
    this.acknowledgedRequests = new AtomicLongArray(clients);
  }

  /** Each client starts a request at most once per {@code every} (a steady load). */
  RetryingIngestClient paced(Duration every) {
    this.pace = every;
    return this;
  }

  /**
   * Keeps no row identities, only how many requests of each client got 204 (a long run's rows would
   * not fit in memory): {@link #acknowledged()} is then unavailable.
   */
  RetryingIngestClient countingOnly() {
    this.identities = false;
    return this;
  }

  void start() {
    for (int c = 0; c < clients; c++) {
      int client = c;
      Thread t = new Thread(() -> run(client), "ingest-client-" + c);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  private void run(int client) {
    Random random = new Random(client);
    long next = System.nanoTime();
    try {
      for (int request = 0; !stop.get(); request++) {
        send(client, request, requests.body(client, request, rowsPerRequest), random);
        next = Math.max(next + pace.toNanos(), System.nanoTime()); // behind: no burst
        long wait = next - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000)); // the pace of the load
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | AssertionError e) {
      synchronized (failures) {
        failures.add(e);
      }
    }
  }

  /** Sends one request until it gets 204; a 400 or other answer is a failure of the test. */
  private void send(int client, int request, String body, Random random)
      throws InterruptedException {
    for (int attempt = 0; ; attempt++) {
      attempts.incrementAndGet();
      if (attempt > 0) {
        retries.incrementAndGet();
        retried.add(requestKey(client, request));
        Thread.sleep(100 + random.nextInt(400)); // backoff, as clients do between retries
      }
      HttpRequest post =
          HttpRequest.newBuilder(URI.create(endpoints.url(client, attempt) + requests.path()))
              .timeout(Duration.ofSeconds(20))
              .POST(HttpRequest.BodyPublishers.ofString(body))
              .build();
      int status;
      try {
        HttpResponse<String> response = http.send(post, HttpResponse.BodyHandlers.ofString());
        status = response.statusCode();
        if (status != 204 && status != 429 && status < 500) {
          throw new AssertionError("request " + client + "/" + request + ": " + response.body());
        }
      } catch (HttpTimeoutException e) {
        continue;
      } catch (IOException e) {
        continue; // refused or reset: the worker is down or restarting
      }
      if (status == 204) {
        for (int row = 0; identities && row < rowsPerRequest; row++) {
          acknowledged.add(identity(client, request, row));
        }
        acknowledgedRequests.incrementAndGet(client);
        acknowledgedRows.addAndGet(rowsPerRequest);
        acknowledgedAfterMark.addAndGet(rowsPerRequest);
        return;
      }
    }
  }

  /**
   * Line protocol to {@code /api/v2/write}: {@code <measurement>,client=c<n>,req=r<n>
   * row=<i>i,v=<x> <time>}, each row at a time in 2026 no other row of the run has, to the
   * nanosecond.
   */
  static Requests lineProtocol(String measurement, int clients, int rowsPerRequest) {
    return new Requests() {
      @Override
      public String path() {
        return "/api/v2/write?bucket=chaos";
      }

      @Override
      public String body(int client, int request, int rows) {
        StringBuilder sb = new StringBuilder(rows * 64);
        for (int row = 0; row < rows; row++) {
          long time =
              1_767_225_600_000_000_000L
                  + ((long) request * rowsPerRequest + row) * clients * 1_000L
                  + client;
          sb.append(measurement)
              .append(",client=c")
              .append(client)
              .append(",req=r")
              .append(request)
              .append(" row=")
              .append(row)
              .append("i,v=")
              .append(row * 0.5)
              .append(' ')
              .append(time)
              .append('\n');
        }
        return sb.toString();
      }
    };
  }

  /** JSON to {@code /ingest/<stream>}: an array of {@code {"client","req","row","v"}} objects. */
  static Requests json(String stream) {
    return new Requests() {
      @Override
      public String path() {
        return "/ingest/" + stream;
      }

      @Override
      public String body(int client, int request, int rows) {
        StringBuilder sb = new StringBuilder(rows * 48).append('[');
        for (int row = 0; row < rows; row++) {
          sb.append(row == 0 ? "" : ",")
              .append("{\"client\":")
              .append(client)
              .append(",\"req\":")
              .append(request)
              .append(",\"row\":")
              .append(row)
              .append(",\"v\":")
              .append(row * 0.5)
              .append('}');
        }
        return sb.append(']').toString();
      }
    };
  }

  /** How a row is found in the lake: the client, request and row columns. */
  static String identity(int client, int request, int row) {
    return "c" + client + "/r" + request + "/" + row;
  }

  /** Every row that got 204, by {@link #identity}. */
  Set<String> acknowledged() {
    if (!identities) {
      throw new IllegalStateException("counting only: no row identities kept");
    }
    return acknowledged;
  }

  int clients() {
    return clients;
  }

  int rowsPerRequest() {
    return rowsPerRequest;
  }

  /**
   * How many requests of {@code client} got 204: requests 0 to this minus one, since a client
   * retries each request until it does before it sends the next.
   */
  long acknowledgedRequests(int client) {
    return acknowledgedRequests.get(client);
  }

  /** Whether the request was sent more than once (its rows may have landed twice). */
  boolean retried(int client, long request) {
    return retried.contains(requestKey(client, request));
  }

  private static long requestKey(int client, long request) {
    return ((long) client << 40) | request;
  }

  long acknowledgedRows() {
    return acknowledgedRows.get();
  }

  /** Rows acknowledged since the last call (progress between kills). */
  long acknowledgedSinceMark() {
    return acknowledgedAfterMark.getAndSet(0);
  }

  long attempts() {
    return attempts.get();
  }

  long retries() {
    return retries.get();
  }

  /** Lets every client finish its current request, then stop. */
  void finish(Duration timeout) throws InterruptedException {
    stop.set(true);
    for (Thread t : threads) {
      t.join(timeout.toMillis());
      if (t.isAlive()) {
        throw new AssertionError(t.getName() + " still sending after " + timeout);
      }
    }
    synchronized (failures) {
      if (!failures.isEmpty()) {
        AssertionError error = new AssertionError("a client failed: " + failures.get(0));
        failures.forEach(error::addSuppressed);
        throw error;
      }
    }
  }

  @Override
  public void close() {
    stop.set(true);
    threads.forEach(Thread::interrupt);
  }

  /** Endpoints: every attempt to one URL. */
  static Endpoints single(String url) {
    return (client, attempt) -> url;
  }

  /**
   * Endpoints: a client starts at URL {@code client % n} and moves on to the next on each retry.
   */
  static Endpoints spread(List<String> urls) {
    IntFunction<String> at = i -> urls.get(Math.floorMod(i, urls.size()));
    return (client, attempt) -> at.apply(client + attempt);
  }
}
