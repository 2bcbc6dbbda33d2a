package io.skippr.connect.it;

import io.skippr.connect.it.soak.WorkerProbe;
import io.skippr.connect.testkit.FreePorts;
import java.io.IOException;
import java.util.Map;

/**
 * The soak's one Connect worker process ({@code skippr local --bootstrap-servers}, as {@link
 * ChaosStack} starts it) with remote JMX on a port of its own, SIGKILLed and started again on
 * demand. Between a kill and the next worker being ready there is no live worker to sample.
 */
final class SoakWorker implements AutoCloseable {
  /** A ready worker: its number (0 first, n after n kills), when it got ready, its probe. */
  record Live(int number, long readyAtNanos, long pid, WorkerProbe probe) {}

  private final ChaosStack stack;
  private CliProcess process;
  private int number = -1;
  private volatile Live live;

  SoakWorker(ChaosStack stack) {
    this.stack = stack;
  }

  /** Starts the next worker and waits until it is ready. */
  void start() throws IOException {
    number++;
    int jmxPort = FreePorts.one();
    process =
        stack.awaitReady(
            stack.startWorker(
                "worker-" + number,
                0,
                ChaosStack.MOVE_AT_ONCE,
                Map.of(
                    "JAVA_TOOL_OPTIONS",
                    WorkerProbe.jmxOptions(jmxPort) + " " + WorkerProbe.RESIDENT_HEAP_OPTIONS)),
            0);
    live =
        new Live(
            number, System.nanoTime(), process.pid(), WorkerProbe.connect(process.pid(), jmxPort));
  }

  /** SIGKILL: no shutdown hook, no flush, no close. */
  void kill() throws InterruptedException {
    Live was = live;
    live = null;
    process.kill();
    if (was != null) {
      was.probe().close();
    }
  }

  /** The ready worker, or null between a kill and the next worker being ready. */
  Live live() {
    return live;
  }

  long pid() {
    return process.pid();
  }

  @Override
  public void close() {
    Live was = live;
    live = null;
    if (was != null) {
      was.probe().close();
    }
  }
}
