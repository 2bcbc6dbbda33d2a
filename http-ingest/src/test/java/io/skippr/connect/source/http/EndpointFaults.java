package io.skippr.connect.source.http;

import java.lang.reflect.Field;

/**
 * Breaks a running task's endpoint from outside, as a fault would: stops its Jetty server, or its
 * request threads, without the task knowing.
 */
final class EndpointFaults {

  private EndpointFaults() {}

  /** Stops the task's Jetty server. */
  static void stopJetty(HttpIngestSourceTask task) throws Exception {
    Object jetty = field(field(field(task, "endpoint"), "server"), "server");
    jetty.getClass().getMethod("stop").invoke(jetty);
  }

  /** Stops the task's request (parse) threads. */
  static void stopRequestThreads(HttpIngestSourceTask task) throws Exception {
    Object pool = field(field(field(field(task, "endpoint"), "server"), "writes"), "pool");
    pool.getClass().getMethod("stop").invoke(pool);
  }

  private static Object field(Object owner, String name) throws ReflectiveOperationException {
    Field f = owner.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return f.get(owner);
  }
}
