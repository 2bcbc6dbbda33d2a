package io.skippr.connect.lake.write;

import io.skippr.connect.common.MdcThreadFactory;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Pools of threads a writer starts: {@link MdcThreadFactory} daemons that end when idle; work is
 * submitted wrapped in {@link MdcThreadFactory#withCallersMdc}, so it logs with the submitting
 * thread's MDC (Connect's connector context).
 */
final class TaskThreads {
  private static final long IDLE_THREAD_SECONDS = 30;
  private static final AtomicInteger POOLS = new AtomicInteger();

  private TaskThreads() {}

  /** A pool of {@code threads} daemon threads named {@code prefix-P-N}. */
  static ThreadPoolExecutor pool(String prefix, int threads) {
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            threads,
            threads,
            IDLE_THREAD_SECONDS,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            new MdcThreadFactory(prefix + "-" + POOLS.incrementAndGet()));
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }
}
