package io.skippr.connect.cli.sync;

import io.skippr.connect.common.SourceCatchUp;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * When a source is caught up, for {@code --once}: every task started and then either the source
 * said it has read everything there is ({@link SourceCatchUp}), or no record came for the idle
 * time. Never while a batch is being handed to the lake writer (that can take longer than the idle
 * time). A Debezium connector is never caught up while its snapshot runs or its stream is not
 * connected (its JMX metrics say so).
 */
final class CatchUp {
  private static final ObjectName DEBEZIUM_METRICS = name("debezium.*:type=connector-metrics,*");

  private final String connector;
  private final long idleNanos;
  private final LongSupplier nanos;
  private final AtomicInteger tasksStarted = new AtomicInteger();
  private final AtomicInteger delivering = new AtomicInteger();
  private final AtomicLong lastActivity;

  CatchUp(String connector, Duration idle, LongSupplier nanos) {
    this.connector = connector;
    this.idleNanos = idle.toNanos();
    this.nanos = nanos;
    this.lastActivity = new AtomicLong(nanos.getAsLong());
  }

  void taskStarted() {
    tasksStarted.incrementAndGet();
    lastActivity.set(nanos.getAsLong());
  }

  /** A batch is being handed to the lake writer: the source is not idle meanwhile. */
  void delivering() {
    delivering.incrementAndGet();
    lastActivity.set(nanos.getAsLong());
  }

  /** The batch is in the writer. */
  void delivered() {
    lastActivity.set(nanos.getAsLong());
    delivering.decrementAndGet();
  }

  /** Whether the source read everything there is for now. */
  boolean caughtUp() {
    if (tasksStarted.get() == 0 || delivering.get() > 0 || debeziumBusy()) {
      return false;
    }
    if (SourceCatchUp.caughtUp(connector, tasksStarted.get())) {
      return true;
    }
    return nanos.getAsLong() - lastActivity.get() >= idleNanos;
  }

  /** Why the run ended, for its report. */
  String reason() {
    return SourceCatchUp.caughtUp(connector, tasksStarted.get())
        ? "the source read everything there is"
        : "no record for " + Duration.ofNanos(idleNanos).toMillis() + " ms";
  }

  private static boolean debeziumBusy() {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    Set<ObjectName> names = server.queryNames(DEBEZIUM_METRICS, null);
    for (ObjectName metrics : names) {
      String context = metrics.getKeyProperty("context");
      try {
        if ("snapshot".equals(context)
            && Boolean.TRUE.equals(server.getAttribute(metrics, "SnapshotRunning"))) {
          return true;
        }
        if ("streaming".equals(context)
            && Boolean.FALSE.equals(server.getAttribute(metrics, "Connected"))) {
          return true;
        }
      } catch (JMException e) {
        // A bean without the attribute says nothing about being busy.
      }
    }
    return false;
  }

  private static ObjectName name(String pattern) {
    try {
      return new ObjectName(pattern);
    } catch (JMException e) {
      throw new IllegalStateException(e);
    }
  }
}
