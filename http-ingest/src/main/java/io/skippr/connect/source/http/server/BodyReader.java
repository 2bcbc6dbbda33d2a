package io.skippr.connect.source.http.server;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * Reads one request body as its bytes arrive, without holding a thread while the client is slow:
 * Jetty calls back when more content is there. Enforces the encoded size limit, the shared memory
 * budget (bytes stay reserved until {@link #releaseBudget()}), and — through {@link UploadWatch} —
 * the request timeout and the minimum data rate. Ends exactly once: with the whole body, or with an
 * {@link UploadRefused}.
 */
public final class BodyReader implements Runnable {

  /** The upload's outcome; exactly one method is called, once. */
  public interface Listener {
    /** The whole body; the bytes stay reserved until {@link BodyReader#releaseBudget()}. */
    void body(BodyReader reader, byte[] body, int length);

    void refused(UploadRefused refusal);
  }

  private final Request request;
  private final long maxBytes;
  private final ByteBudget budget;
  private final UploadWatch watch;
  private final Listener listener;
  private final long startNanos = System.nanoTime();
  private final AtomicBoolean ended = new AtomicBoolean();
  private final AtomicLong reserved = new AtomicLong();
  private byte[] buffer;
  private volatile int length;

  /**
   * @param expectedLength the Content-Length, or -1 when the body is chunked
   */
  public BodyReader(
      Request request,
      long expectedLength,
      long maxBytes,
      ByteBudget budget,
      UploadWatch watch,
      Listener listener) {
    this.request = request;
    this.maxBytes = maxBytes;
    this.budget = budget;
    this.watch = watch;
    this.listener = listener;
    this.buffer = new byte[(int) Math.min(Math.max(expectedLength, 1024), 64 * 1024)];
  }

  /** Starts reading; the listener is called from a Jetty thread (or this one). */
  public void start() {
    watch.add(this);
    run();
  }

  /** Reads what is there, then asks Jetty to call back when more arrives. */
  @Override
  public void run() {
    while (!ended.get()) {
      Content.Chunk chunk = request.read();
      if (chunk == null) {
        demand();
        return;
      }
      if (Content.Chunk.isFailure(chunk)) {
        Throwable failure = chunk.getFailure();
        refuse(
            failure instanceof TimeoutException
                ? new UploadRefused(408, "no data from the client for the idle timeout")
                : new UploadRefused(400, "the request body could not be read: " + failure));
        return;
      }
      boolean last = chunk.isLast();
      try {
        if (!append(chunk.getByteBuffer())) {
          return;
        }
      } finally {
        chunk.release();
      }
      if (last) {
        if (ended.compareAndSet(false, true)) {
          watch.remove(this);
          listener.body(this, buffer, length);
        }
        return;
      }
    }
  }

  private boolean append(ByteBuffer bytes) {
    int n = bytes.remaining();
    if (n == 0) {
      return true;
    }
    if (length + (long) n > maxBytes) {
      refuse(new UploadRefused(413, "request body larger than " + maxBytes + " bytes"));
      return false;
    }
    if (!budget.tryReserve(n)) {
      refuse(
          new UploadRefused(
              503, "too many request bytes are held by uploads in progress; retry later"));
      return false;
    }
    reserved.addAndGet(n);
    if (length + n > buffer.length) {
      buffer =
          Arrays.copyOf(buffer, (int) Math.min(maxBytes, Math.max(2L * buffer.length, length + n)));
    }
    bytes.get(buffer, length, n);
    length += n;
    return true;
  }

  /**
   * Checks the upload's deadlines (called by {@link UploadWatch}).
   *
   * @param timeoutNanos longest an upload may take
   * @param minBytesPerSecond slowest average rate once it has taken a second; 0 for none
   */
  void check(long nowNanos, long timeoutNanos, long minBytesPerSecond) {
    long elapsed = nowNanos - startNanos;
    if (elapsed > timeoutNanos) {
      refuse(new UploadRefused(408, "the request body did not arrive within the request timeout"));
    } else if (minBytesPerSecond > 0
        && elapsed >= 1_000_000_000L
        && length * 1_000_000_000L / elapsed < minBytesPerSecond) {
      refuse(
          new UploadRefused(
              408,
              "the request body arrived slower than "
                  + minBytesPerSecond
                  + " bytes per second ("
                  + length
                  + " bytes in "
                  + elapsed / 1_000_000
                  + " ms)"));
    }
  }

  /** Ends the upload with a refusal unless it already ended. */
  public void refuse(UploadRefused refusal) {
    if (ended.compareAndSet(false, true)) {
      watch.remove(this);
      listener.refused(refusal);
    }
  }

  /** Bytes received so far. */
  public int length() {
    return length;
  }

  /** Gives the body's bytes back to the shared budget; call once the request is done with them. */
  public void releaseBudget() {
    budget.release(reserved.getAndSet(0));
  }

  private void demand() {
    try {
      request.demand(this);
    } catch (IllegalStateException e) {
      // the upload was refused meanwhile and the exchange has completed: nothing more to read
    }
  }
}
