package io.skippr.connect.source.poll.http;

import io.skippr.connect.common.ProjectVersion;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.GZIPInputStream;

/**
 * Sends requests with the JDK's {@link HttpClient}: one response at a time per task, bounded in
 * time and size, gzip bodies decompressed, and cancellable from another thread when the task stops.
 */
public final class HttpExchanger implements AutoCloseable {

  private static final String USER_AGENT = "skippr-connect-http-poll/" + ProjectVersion.get();
  private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofSeconds(10);

  private final HttpClient client;
  private final AtomicReference<CompletableFuture<?>> inFlight = new AtomicReference<>();
  private volatile boolean closed;

  public HttpExchanger(long timeoutMs) {
    Duration connect = Duration.ofMillis(timeoutMs);
    this.client =
        HttpClient.newBuilder()
            .connectTimeout(
                connect.compareTo(MAX_CONNECT_TIMEOUT) > 0 ? MAX_CONNECT_TIMEOUT : connect)
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build();
  }

  /** A request builder with our user agent and gzip; plain http stays on HTTP/1.1 (no h2c). */
  public static HttpRequest.Builder newRequest(URI uri, long timeoutMs) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofMillis(timeoutMs))
            .header("User-Agent", USER_AGENT)
            .header("Accept-Encoding", "gzip");
    if ("http".equalsIgnoreCase(uri.getScheme())) {
      b.version(HttpClient.Version.HTTP_1_1);
    }
    return b;
  }

  /**
   * Sends and waits for the whole response.
   *
   * @throws RequestFailure transient for I/O errors and timeouts, permanent for a body over {@code
   *     maxBytes}
   * @throws InterruptedException when interrupted or when {@link #close()} cancelled the exchange
   */
  public Response send(HttpRequest request, long timeoutMs, long maxBytes)
      throws RequestFailure, InterruptedException {
    String where = request.method() + " " + Redaction.url(request.uri());
    CompletableFuture<HttpResponse<byte[]>> future =
        client.sendAsync(request, info -> new LimitedBody(maxBytes));
    inFlight.set(future);
    if (closed) {
      future.cancel(true);
    }
    try {
      HttpResponse<byte[]> response = future.get(timeoutMs + 1000, TimeUnit.MILLISECONDS);
      byte[] body = decode(response, maxBytes, where);
      return new Response(response.uri(), response.statusCode(), response.headers(), body);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw RequestFailure.transientFailure(0, where + ": no response within " + timeoutMs + " ms");
    } catch (CancellationException e) {
      throw new InterruptedException("request cancelled: the task is stopping");
    } catch (ExecutionException e) {
      throw failure(e.getCause(), where, maxBytes);
    } finally {
      inFlight.set(null);
    }
  }

  private static RequestFailure failure(Throwable cause, String where, long maxBytes) {
    Throwable root = cause;
    while (root.getCause() != null && !(root instanceof LimitedBody.TooLarge)) {
      root = root.getCause();
    }
    if (root instanceof LimitedBody.TooLarge) {
      return RequestFailure.permanent(
          0, where + ": response body larger than http.max.response.bytes=" + maxBytes);
    }
    String message =
        cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    return RequestFailure.transientFailure(0, where + ": I/O error: " + message);
  }

  private static byte[] decode(HttpResponse<byte[]> response, long maxBytes, String where)
      throws RequestFailure {
    String encoding = response.headers().firstValue("Content-Encoding").orElse("");
    if (!encoding.toLowerCase(Locale.ROOT).contains("gzip")) {
      return response.body();
    }
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(response.body()))) {
      byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
      if (body.length > maxBytes) {
        throw RequestFailure.permanent(
            response.statusCode(),
            where + ": decompressed body larger than http.max.response.bytes=" + maxBytes);
      }
      return body;
    } catch (IOException e) {
      throw RequestFailure.transientFailure(
          response.statusCode(), where + ": broken gzip body: " + e.getMessage());
    }
  }

  /** Cancels the exchange in flight, if any; later sends fail at once. */
  @Override
  public void close() {
    closed = true;
    CompletableFuture<?> current = inFlight.get();
    if (current != null) {
      current.cancel(true);
    }
  }
}
