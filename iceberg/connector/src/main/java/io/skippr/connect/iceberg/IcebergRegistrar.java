package io.skippr.connect.iceberg;

import io.skippr.connect.lake.publish.CommitListener;
import io.skippr.connect.lake.publish.FilesExpired;
import io.skippr.connect.lake.publish.FilesReplaced;
import io.skippr.connect.lake.publish.OpenedTp;
import io.skippr.connect.lake.publish.UnitCommitted;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit listener that keeps Iceberg tables in line with the lake: events become {@link
 * Change}s queued on the writer's threads ({@link ChangeQueue}) and registered by a thread of its
 * own ({@link RegistrationThread}) every {@code iceberg.commit.interval.ms}, one commit per table
 * and kind of change ({@link TableCommits}). A change that replaced files (a merge, a unit under
 * {@code replace_partition}) is registered without waiting for the interval: the replaced files
 * left the lake's tables with it, and the current snapshot should stop naming them. Before a TP's
 * changes are committed, the lake log must still name this writer's epoch as the newest ({@link
 * WriterFence}). A batch that cannot be committed stays pending, in order, and is tried again later
 * ({@link PendingChanges}); the lake goes on meanwhile, and a new owner of a TP registers whatever
 * is left.
 *
 * <p>Lifecycle: built, then {@link #start}ed; {@link #close} registers what is queued within a
 * bound and releases the resources.
 */
final class IcebergRegistrar implements CommitListener {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergRegistrar.class);
  private static final long CLOSE_BOUND_MS = 30_000;

  private final ChangeQueue queue;
  private final RegistrationThread thread;
  private final AutoCloseable resources;

  /**
   * @param resources closed when the registrar stops (catalog, store, storage)
   */
  IcebergRegistrar(ChangeQueue queue, RegistrationThread thread, AutoCloseable resources) {
    this.queue = queue;
    this.thread = thread;
    this.resources = resources;
  }

  /** Starts registering; events queued before are registered too. */
  IcebergRegistrar start() {
    thread.start();
    return this;
  }

  @Override
  public void opened(OpenedTp tp) {
    queue.add(new Change.Reconcile(tp.tp(), tp.epoch(), tp.logSeq(), tp.liveFiles()));
  }

  @Override
  public void committed(UnitCommitted u) {
    if (!u.retired().isEmpty()) {
      // replace_partition: the unit's files replace the paths' older files in one overwrite.
      queue.addNow(
          new Change.Replace(u.tp(), u.id(), u.retired(), u.files(), u.epoch(), u.logSeq(), true));
      return;
    }
    queue.add(
        new Change.Append(u.tp(), u.id(), u.start(), u.end(), u.epoch(), u.logSeq(), u.files()));
  }

  @Override
  public void replaced(FilesReplaced r) {
    queue.addNow(
        new Change.Replace(
            r.tp(), r.id(), r.removed(), r.added(), r.epoch(), r.logSeq(), r.merged()));
  }

  @Override
  public void expired(FilesExpired x) {
    queue.add(new Change.Expire(x.tp(), x.id(), x.removed(), x.epoch(), x.logSeq()));
  }

  /** Registers what is queued within a bound, then stops and releases the resources. */
  @Override
  public void close() {
    try {
      thread.stop(CLOSE_BOUND_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      try {
        resources.close();
      } catch (Exception e) {
        LOG.warn("Closing the Iceberg catalog failed: {}", e.toString());
      }
    }
  }
}
