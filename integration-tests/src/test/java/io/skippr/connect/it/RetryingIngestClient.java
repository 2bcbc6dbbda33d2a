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
import java.util.function.IntFunction;

/**
 * Clients that write like Telegraf: each sends line protocol requests one after another and retries
 * a request (the same body) on 5xx, 429, a timeout or a refused connection, after a short backoff,
 * until it gets 204 — possibly at another endpoint. Every row is unique: measurement, tags {@code
 * client} and {@code req}, field {@code row}, and a time no other row has. Records which rows got
 * 204.
 */
final class RetryingIngestClient implements AutoCloseable {

  /** Where a client sends an attempt: attempt number → base URL. */
  interface Endpoints {
    String url(int client, int attempt);
  }

  private final String measurement;
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
  private final List<Thread> threads = new ArrayList<>();
  private final List<Throwable> failures = new ArrayList<>();

  RetryingIngestClient(String measurement, int clients, int rowsPerRequest, Endpoints endpoints) {
    this.measurement = measurement;
    this.clients = clients;
    this.rowsPerRequest = rowsPerRequest;
    this.endpoints = endpoints;
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
    try {
      for (int request = 0; !stop.get(); request++) {
        send(client, request, body(client, request), random);
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
        Thread.sleep(100 + random.nextInt(400)); // backoff, as clients do between retries
      }
      HttpRequest post =
          HttpRequest.newBuilder(
                  URI.create(endpoints.url(client, attempt) + "/api/v2/write?bucket=chaos"))
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
        for (int row = 0; row < rowsPerRequest; row++) {
          acknowledged.add(identity(client, request, row));
        }
        acknowledgedRows.addAndGet(rowsPerRequest);
        acknowledgedAfterMark.addAndGet(rowsPerRequest);
        return;
      }
    }
  }

  private String body(int client, int request) {
    StringBuilder sb = new StringBuilder(rowsPerRequest * 64);
    for (int row = 0; row < rowsPerRequest; row++) {
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
          .append(timeNanos(client, request, row))
          .append('\n');
    }
    return sb.toString();
  }

  /** A time in 2026 no other row of the run has, to the nanosecond. */
  private long timeNanos(int client, int request, int row) {
    return 1_767_225_600_000_000_000L
        + ((long) request * rowsPerRequest + row) * clients * 1_000L
        + client;
  }

  /** How a row is found in the lake: the client, request and row columns. */
  static String identity(int client, int request, int row) {
    return "c" + client + "/r" + request + "/" + row;
  }

  /** Every row that got 204, by {@link #identity}. */
  Set<String> acknowledged() {
    return acknowledged;
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
