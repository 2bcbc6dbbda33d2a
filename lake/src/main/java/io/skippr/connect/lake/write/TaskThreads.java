package io.skippr.connect.lake.write;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.MDC;

/** Threads a task starts: daemons that end when idle and log with the submitting thread's MDC. */
final class TaskThreads {
  private static final long IDLE_THREAD_SECONDS = 30;
  private static final AtomicInteger POOLS = new AtomicInteger();

  private TaskThreads() {}

  /** A pool of {@code threads} daemon threads named {@code prefix-P-N}. */
  static ThreadPoolExecutor pool(String prefix, int threads) {
    String name = prefix + "-" + POOLS.incrementAndGet() + "-";
    AtomicInteger count = new AtomicInteger();
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            threads,
            threads,
            IDLE_THREAD_SECONDS,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            task -> {
              Thread thread = new Thread(task, name + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }

  /** The work, run with the MDC the calling thread has now (Connect's connector context). */
  static <T> Callable<T> withCallersMdc(Callable<T> work) {
    Map<String, String> mdc = MDC.getCopyOfContextMap();
    return () -> {
      if (mdc != null) {
        MDC.setContextMap(mdc);
      }
      try {
        return work.call();
      } finally {
        MDC.clear();
      }
    };
  }
}
