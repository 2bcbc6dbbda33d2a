package io.skippr.connect.sink.bench;

import java.lang.management.ManagementFactory;

/**
 * Accumulates wall time, this thread's CPU time and its allocated bytes over the timed sections
 * only, so generating the input between sections is not measured.
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

  /** Rows per second of wall time spent in the timed sections. */
  public double rowsPerSecond(long rows) {
    return rows / (wallNanos / 1e9);
  }

  /** Rows per second of this thread's CPU time in the timed sections. */
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
