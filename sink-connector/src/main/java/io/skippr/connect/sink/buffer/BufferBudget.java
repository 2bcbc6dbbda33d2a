package io.skippr.connect.sink.buffer;

/** The task's accounting of buffered bytes against {@code buffer.max.bytes}. */
public final class BufferBudget {
  private final long maxBytes;
  private long bytes;
  private long peakBytes;

  public BufferBudget(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  public void add(long delta) {
    bytes += delta;
    peakBytes = Math.max(peakBytes, bytes);
  }

  public void release(long delta) {
    bytes -= delta;
  }

  public boolean isOver() {
    return bytes > maxBytes;
  }

  public long bytes() {
    return bytes;
  }

  /** The most bytes ever buffered at once. */
  public long peakBytes() {
    return peakBytes;
  }

  public long maxBytes() {
    return maxBytes;
  }
}
