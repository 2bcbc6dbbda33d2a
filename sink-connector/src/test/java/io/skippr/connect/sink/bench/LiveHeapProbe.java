package io.skippr.connect.sink.bench;

import io.skippr.connect.lake.write.LakeWriter;
import java.util.function.Consumer;

/**
 * Measures the live heap once, with full collections, right before the batch that will push the
 * task's buffer over its budget and so cut a unit: the moment the most rows are buffered. Skips the
 * first units (the JVM and the task settle). Runs between batches, outside the timed parts.
 */
final class LiveHeapProbe implements Consumer<LakeWriter> {
  private static final int SKIPPED_UNITS = 2;

  private final long budget;
  private long previous;
  private int cuts;
  private long liveHeap = -1;
  private long buffered;

  LiveHeapProbe(long budget) {
    this.budget = budget;
  }

  @Override
  public void accept(LakeWriter writer) {
    long now = writer.bufferedBytes();
    long growth = now - previous;
    previous = now;
    if (growth < 0) {
      cuts++;
    } else if (liveHeap < 0 && cuts >= SKIPPED_UNITS && growth > 0 && now + growth > budget) {
      liveHeap = HeapSampler.settledHeap();
      buffered = now;
    }
  }

  /** Heap in use after full collections at the probe, or -1 when no unit was cut that late. */
  long liveHeap() {
    return liveHeap;
  }

  /** The task's buffered bytes at the probe. */
  long buffered() {
    return buffered;
  }
}
