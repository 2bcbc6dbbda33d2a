package io.skippr.connect.cli.sync;

import io.skippr.connect.cli.lease.HeldLease;
import java.util.Optional;

/** The lease {@code sync/{pipeline}} in the state store: one run of a pipeline at a time. */
final class SyncLease implements AutoCloseable {
  private final HeldLease lease;
  private final String pipeline;

  private SyncLease(HeldLease lease, String pipeline) {
    this.lease = lease;
    this.pipeline = pipeline;
  }

  /**
   * Takes the pipeline's lease, waiting for another run to end when {@code wait}.
   *
   * @throws SyncException naming the holder, when it is held and not waited for
   */
  static SyncLease take(SyncState state, SyncPipeline pipeline, boolean wait, SyncOutput output)
      throws InterruptedException {
    HeldLease lease =
        new HeldLease(
            state.store(),
            pipeline.scope(),
            "sync/" + pipeline.name(),
            "skippr sync",
            pipeline.settings().lease());
    try {
      Optional<String> holder = lease.take(wait, output::waiting);
      if (holder.isPresent()) {
        throw new SyncException(
            "pipeline " + pipeline.name() + " is being run by " + holder.get() + " (--wait waits)");
      }
      return new SyncLease(lease, pipeline.name());
    } catch (InterruptedException | RuntimeException e) {
      lease.close();
      throw e;
    }
  }

  /** Throws when another run took the lease over (this one stood still for its whole duration). */
  void throwIfLost() {
    if (lease.lost()) {
      throw new SyncException("the lease of pipeline " + pipeline + " was taken by another run");
    }
  }

  @Override
  public void close() {
    lease.close();
  }
}
