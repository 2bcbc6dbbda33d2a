package io.skippr.connect.source.http.server;

import io.skippr.connect.common.MdcThreadFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Watches the uploads in progress: four times a second it ends those over the request timeout or
 * under the minimum data rate with 408. One thread for all uploads, however many clients are slow.
 */
public final class UploadWatch implements AutoCloseable {

  private static final long TICK_MS = 250;

  private final Set<BodyReader> uploads = ConcurrentHashMap.newKeySet();
  private final long timeoutNanos;
  private final long minBytesPerSecond;
  private final ScheduledExecutorService ticker;

  public UploadWatch(long requestTimeoutMs, long minBytesPerSecond) {
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(requestTimeoutMs);
    this.minBytesPerSecond = minBytesPerSecond;
    this.ticker =
        Executors.newSingleThreadScheduledExecutor(
            new MdcThreadFactory("skippr-http-ingest-watch"));
    ticker.scheduleWithFixedDelay(this::tick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
  }

  void add(BodyReader upload) {
    uploads.add(upload);
  }

  void remove(BodyReader upload) {
    uploads.remove(upload);
  }

  /** Uploads in progress. */
  public int size() {
    return uploads.size();
  }

  private void tick() {
    long now = System.nanoTime();
    for (BodyReader upload : uploads) {
      upload.check(now, timeoutNanos, minBytesPerSecond);
    }
  }

  /** Ends every upload in progress with the refusal (the task is stopping). */
  public void refuseAll(UploadRefused refusal) {
    List<BodyReader> open = new ArrayList<>(uploads);
    open.forEach(upload -> upload.refuse(refusal));
  }

  @Override
  public void close() {
    ticker.shutdownNow();
  }
}
