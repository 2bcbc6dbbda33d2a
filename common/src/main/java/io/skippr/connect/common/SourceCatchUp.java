package io.skippr.connect.common;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Notices from source tasks, inside one process, that they have read everything their source holds
 * for now: every listed file read, the last page of a pass fetched. Under Connect nobody asks; a
 * run without Kafka ({@code skippr sync --once}) ends once every task of its connector says so. A
 * task reports only from a poll that returned no records, so everything it returned before has been
 * handed on.
 */
public final class SourceCatchUp {
  private static final Map<String, Map<Object, Boolean>> TASKS = new ConcurrentHashMap<>();

  private SourceCatchUp() {}

  /**
   * A task of {@code connector} tells whether it is caught up.
   *
   * @param task the task itself (its identity tells tasks apart)
   */
  public static void report(String connector, Object task, boolean caughtUp) {
    if (connector != null) {
      TASKS.computeIfAbsent(connector, c -> new ConcurrentHashMap<>()).put(task, caughtUp);
    }
  }

  /** The task stopped: it no longer counts. */
  public static void forget(String connector, Object task) {
    if (connector != null) {
      TASKS.computeIfPresent(
          connector,
          (c, tasks) -> {
            tasks.remove(task);
            return tasks.isEmpty() ? null : tasks;
          });
    }
  }

  /** Whether at least {@code tasks} tasks of the connector reported, all caught up. */
  public static boolean caughtUp(String connector, int tasks) {
    Map<Object, Boolean> reported = TASKS.get(connector);
    return reported != null
        && tasks > 0
        && reported.size() >= tasks
        && !reported.containsValue(Boolean.FALSE);
  }
}
