package io.skippr.connect.sink.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.Map;

/**
 * Accumulates wall time, this thread's CPU time and its allocated bytes over the timed sections
 * only, so generating the input between sections is not measured. CPU time of threads the measured
 * code runs on besides can be added ({@link #addThreadCpu}).
 */
public final class Stopwatch {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private long wallNanos;
  private long cpuNanos;
  private long allocated;
  private long startWall;
  private long startCpu;
  private long startAllocated;

  public void start() {
    startAllocated = THREADS.getCurrentThreadAllocatedBytes();
    startCpu = THREADS.getCurrentThreadCpuTime();
    startWall = System.nanoTime();
  }

  public void stop() {
    wallNanos += System.nanoTime() - startWall;
    cpuNanos += THREADS.getCurrentThreadCpuTime() - startCpu;
    allocated += THREADS.getCurrentThreadAllocatedBytes() - startAllocated;
  }

  /**
   * CPU time of the live threads whose names start with {@code prefix}, by thread id: threads the
   * measured code starts (the task's file writers) and that run only inside timed sections.
   */
  public static Map<Long, Long> threadCpu(String prefix) {
    Map<Long, Long> cpu = new HashMap<>();
    for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info != null && info.getThreadName().startsWith(prefix)) {
        long nanos = THREADS.getThreadCpuTime(info.getThreadId());
        if (nanos >= 0) {
          cpu.put(info.getThreadId(), nanos);
        }
      }
    }
    return cpu;
  }

  /** Adds what those threads spent between two {@link #threadCpu} snapshots. */
  public void addThreadCpu(Map<Long, Long> before, Map<Long, Long> after) {
    after.forEach((id, nanos) -> cpuNanos += nanos - before.getOrDefault(id, 0L));
  }

  /** Rows per second of wall time spent in the timed sections. */
  public double rowsPerSecond(long rows) {
    return rows / (wallNanos / 1e9);
  }

  /** Rows per second of CPU time in the timed sections (this thread and any added). */
  public double rowsPerCpuSecond(long rows) {
    return rows / (cpuNanos / 1e9);
  }

  public double allocatedPerRow(long rows) {
    return allocated / (double) rows;
  }

  public double seconds() {
    return wallNanos / 1e9;
  }
}
