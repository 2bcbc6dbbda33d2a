package io.skippr.connect.cli.sync;

import io.skippr.connect.common.Messages;
import java.util.List;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * What the engine's tasks hand a run: batches into the lake, progress to the catch-up watch, and
 * how the engine ended. A failure to write a batch fails the run and the task that delivered it.
 */
final class SyncDelivery implements SyncEngine.Handler {
  private final SyncLake lake;
  private final CatchUp catchUp;
  private final SyncFailure failure;
  private volatile boolean engineEnded;

  SyncDelivery(SyncLake lake, CatchUp catchUp, SyncFailure failure) {
    this.lake = lake;
    this.catchUp = catchUp;
    this.failure = failure;
  }

  /** Whether the engine stopped, by itself or after a failure. */
  boolean engineEnded() {
    return engineEnded;
  }

  @Override
  public void deliver(List<SourceRecord> batch, List<SourceAck> acks) {
    if (batch.isEmpty()) {
      return;
    }
    catchUp.delivering();
    try {
      lake.deliver(batch, acks);
    } catch (RuntimeException e) {
      failure.fail(
          e instanceof SyncException
              ? e.getMessage()
              : "the lake writer failed: " + Messages.oneLine(e));
      throw e;
    } finally {
      catchUp.delivered();
    }
  }

  @Override
  public void taskStarted() {
    catchUp.taskStarted();
  }

  @Override
  public void stopped(boolean success, String message, Throwable error) {
    if (!success && !lake.draining()) {
      failure.fail("the source failed: " + (error != null ? Messages.oneLine(error) : message));
    }
    engineEnded = true;
  }
}
