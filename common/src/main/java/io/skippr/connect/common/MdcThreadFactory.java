package io.skippr.connect.common;

import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.MDC;

/** Threads that carry the starting thread's MDC (Connect's connector context) into their logs. */
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
}
