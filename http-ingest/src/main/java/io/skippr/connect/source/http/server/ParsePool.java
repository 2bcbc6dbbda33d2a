package io.skippr.connect.source.http.server;

import io.skippr.connect.common.MdcThreadFactory;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A fixed number of threads with a bounded queue in front: work that finds the queue full is
 * refused at once (the caller answers 503), never queued without bound.
 */
public final class ParsePool {

  private final ThreadPoolExecutor pool;

  public ParsePool(int threads, int queueSize) {
    this.pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            60,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(queueSize),
            new MdcThreadFactory("skippr-http-ingest"),
            new ThreadPoolExecutor.AbortPolicy());
  }

  /** Queues the job; false when the queue is full or the pool stopped. */
  public boolean submit(Runnable job) {
    try {
      pool.execute(job);
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  public boolean stopped() {
    return pool.isShutdown();
  }

  /** Jobs waiting for a thread. */
  public int queued() {
    return pool.getQueue().size();
  }

  /** Stops the threads; returns the jobs that never started (each exactly as submitted). */
  public List<Runnable> stop() {
    return pool.shutdownNow();
  }
}
