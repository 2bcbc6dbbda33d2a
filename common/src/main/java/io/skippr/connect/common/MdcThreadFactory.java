package io.skippr.connect.common;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.MDC;

/**
 * Daemon threads that carry the starting thread's MDC (Connect's connector context) into their
 * logs, named {@code prefix-1}, {@code prefix-2}, … The one way the project starts a thread; {@link
 * #withCallersMdc} carries the MDC of whoever submits work to a thread that already runs.
 */
public final class MdcThreadFactory implements ThreadFactory {

  private final String prefix;
  private final Map<String, String> mdc;
  private final AtomicInteger count = new AtomicInteger();

  /** Captures the calling thread's MDC now. */
  public MdcThreadFactory(String prefix) {
    this.prefix = prefix;
    this.mdc = MDC.getCopyOfContextMap();
  }

  @Override
  public Thread newThread(Runnable r) {
    Runnable withMdc =
        () -> {
          if (mdc != null) {
            MDC.setContextMap(mdc);
          }
          r.run();
        };
    Thread t = new Thread(withMdc, prefix + "-" + count.incrementAndGet());
    t.setDaemon(true);
    return t;
  }

  /**
   * The work, run with the MDC the calling thread has now; the running thread's own MDC is put back
   * after it.
   */
  public static <T> Callable<T> withCallersMdc(Callable<T> work) {
    Map<String, String> callers = MDC.getCopyOfContextMap();
    return () -> callWith(callers, work::call);
  }

  /** As {@link #withCallersMdc(Callable)}, for work without a result. */
  public static Runnable withCallersMdc(Runnable work) {
    Map<String, String> callers = MDC.getCopyOfContextMap();
    return () ->
        callWith(
            callers,
            () -> {
              work.run();
              return null;
            });
  }

  /** Work that may throw {@code E}. */
  private interface Work<T, E extends Exception> {
    T call() throws E;
  }

  private static <T, E extends Exception> T callWith(Map<String, String> mdc, Work<T, E> work)
      throws E {
    Map<String, String> own = MDC.getCopyOfContextMap();
    setOrClear(mdc);
    try {
      return work.call();
    } finally {
      setOrClear(own);
    }
  }

  private static void setOrClear(Map<String, String> mdc) {
    if (mdc == null) {
      MDC.clear();
    } else {
      MDC.setContextMap(mdc);
    }
  }
}
