package io.skippr.connect.iceberg;

import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.publish.CommitListener;
import io.skippr.connect.lake.publish.FilesExpired;
import io.skippr.connect.lake.publish.FilesReplaced;
import io.skippr.connect.lake.publish.LogOwnership;
import io.skippr.connect.lake.publish.OpenedTp;
import io.skippr.connect.lake.publish.UnitCommitted;
import io.skippr.connect.lake.storage.LakeStorage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The commit listener that keeps Iceberg tables in line with the lake: events are queued on the
 * writer's threads and registered on a thread of its own every {@code iceberg.commit.interval.ms},
 * one commit per table and kind of change. A change that replaced files (a merge, a unit under
 * {@code replace_partition}) is registered without waiting for the interval: the replaced files
 * left the lake's tables with it, and the current snapshot should stop naming them. Before a TP's
 * changes are committed, the lake log must still name this writer's epoch as the newest: a writer
 * that lost its TPs (a zombie) registers nothing. A batch that cannot be committed stays queued, in
 * order, and is tried again later; the lake goes on meanwhile, and a new owner of a TP registers
 * whatever is left.
 */
final class IcebergRegistrar implements CommitListener {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergRegistrar.class);
  private static final long CLOSE_BOUND_MS = 30_000;
  private static final long MAX_BACKOFF_MS = 60_000;

  /** Wakes the thread on close; a reconcile of no files changes nothing. */
  private static final Change WAKE =
      new Change.Reconcile(new TopicPartition("", -1), 0, -1, List.of());

  private final LinkedBlockingQueue<Change> queue = new LinkedBlockingQueue<>();
  private final List<Change> pending = new ArrayList<>();
  private final TableRegistrar registrar;
  private final LakeDataFiles files;
  private final LogOwnership ownership;
  private final long intervalMs;
  private final AutoCloseable resources;
  private final Thread thread;
  private final Object wake = new Object();
  private volatile boolean stopping;
  private volatile boolean urgent;
  private volatile long stopDeadline;
  private long backoffMs;

  /**
   * @param logStorage a lake storage handle of this registrar's own (for the ownership checks)
   * @param resources closed when the registrar stops (catalog, store, storage)
   */
  IcebergRegistrar(
      TableRegistrar registrar,
      LakeDataFiles files,
      LakeStorage logStorage,
      long intervalMs,
      AutoCloseable resources,
      String name) {
    this.registrar = registrar;
    this.files = files;
    this.ownership = new LogOwnership(logStorage);
    this.intervalMs = intervalMs;
    this.resources = resources;
    Map<String, String> mdc = MDC.getCopyOfContextMap();
    this.thread =
        new Thread(
            () -> {
              if (mdc != null) {
                MDC.setContextMap(mdc);
              }
              run();
            },
            "iceberg-registrar-" + name);
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void opened(OpenedTp tp) {
    queue.add(new Change.Reconcile(tp.tp(), tp.epoch(), tp.logSeq(), tp.liveFiles()));
  }

  @Override
  public void committed(UnitCommitted u) {
    if (!u.retired().isEmpty()) {
      // replace_partition: the unit's files replace the paths' older files in one overwrite.
      queue.add(
          new Change.Replace(u.tp(), u.id(), u.retired(), u.files(), u.epoch(), u.logSeq(), true));
      registerNow();
      return;
    }
    queue.add(
        new Change.Append(u.tp(), u.id(), u.start(), u.end(), u.epoch(), u.logSeq(), u.files()));
  }

  @Override
  public void replaced(FilesReplaced r) {
    queue.add(
        new Change.Replace(
            r.tp(), r.id(), r.removed(), r.added(), r.epoch(), r.logSeq(), r.merged()));
    registerNow();
  }

  /** Ends the interval's wait: what is queued is registered now. */
  private void registerNow() {
    urgent = true;
    synchronized (wake) {
      wake.notifyAll();
    }
  }

  @Override
  public void expired(FilesExpired x) {
    queue.add(new Change.Expire(x.tp(), x.id(), x.removed(), x.epoch(), x.logSeq()));
  }

  /** Lets the interval's changes gather into one commit per table; a stop ends the wait. */
  private void gather(long ms) throws InterruptedException {
    long deadline = System.nanoTime() + ms * 1_000_000L;
    synchronized (wake) {
      long left;
      while (!stopping && !urgent && (left = deadline - System.nanoTime()) > 0) {
        wake.wait(Math.max(1, left / 1_000_000L));
      }
    }
  }

  /** Registers what is queued within a bound, then stops. */
  @Override
  public void close() {
    stopDeadline = System.currentTimeMillis() + CLOSE_BOUND_MS;
    stopping = true;
    synchronized (wake) {
      wake.notifyAll();
    }
    queue.add(WAKE);
    try {
      thread.join(CLOSE_BOUND_MS + intervalMs);
      if (thread.isAlive()) {
        LOG.warn("Iceberg registration did not finish in time; the TPs' next owner registers it");
        thread.interrupt();
        thread.join(5_000);
      }
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

  /** Waits until everything queued before this call is registered or given up; for tests. */
  boolean awaitIdle(long timeoutMs) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (System.currentTimeMillis() < deadline) {
      synchronized (this) {
        if (queue.isEmpty() && pending.isEmpty() && !busy) {
          return true;
        }
        wait(50);
      }
    }
    return false;
  }

  private boolean busy;

  private void run() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Change first = queue.poll(intervalMs + backoffMs, TimeUnit.MILLISECONDS);
        if (first == null && !stopping && pending.isEmpty()) {
          continue;
        }
        long waitMs = stopping ? 0 : intervalMs;
        if (first != null && waitMs > 0) {
          gather(waitMs);
        }
        synchronized (this) {
          busy = true;
          if (first != null) {
            pending.add(first);
          }
          urgent = false;
          queue.drainTo(pending);
          pending.removeIf(change -> change == WAKE);
        }
        round();
        synchronized (this) {
          busy = false;
          notifyAll();
          queue.remove(WAKE);
          boolean drained = pending.isEmpty() && queue.isEmpty();
          if (stopping && (drained || System.currentTimeMillis() > stopDeadline)) {
            return;
          }
        }
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException | LinkageError e) {
        LOG.error("Iceberg registration failed; trying again", e);
        synchronized (this) {
          busy = false;
        }
        backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(1_000, backoffMs * 2));
      }
    }
  }

  /** One pass over what is pending: fenced TPs dropped, then each table's changes in order. */
  private void round() {
    List<Change> work = new ArrayList<>(pending);
    pending.clear();
    work = owned(work);
    LOG.debug("Registering {} change(s), {} left for later", work.size(), pending.size());
    Map<String, List<Slice>> byTable = new LinkedHashMap<>();
    for (Change change : work) {
      for (Map.Entry<String, Slice> slice : slices(change).entrySet()) {
        byTable.computeIfAbsent(slice.getKey(), t -> new ArrayList<>()).add(slice.getValue());
      }
    }
    Set<Change> failed = new HashSet<>();
    for (Map.Entry<String, List<Slice>> table : byTable.entrySet()) {
      List<Slice> left = commitInRuns(table.getKey(), table.getValue());
      left.forEach(slice -> failed.add(slice.change()));
    }
    // A change of several tables stays whole: registering again is a no-op where it landed.
    for (Change change : work) {
      if (failed.contains(change)) {
        pending.add(change);
      }
    }
    backoffMs = failed.isEmpty() ? 0 : Math.min(MAX_BACKOFF_MS, Math.max(1_000, backoffMs * 2));
  }

  /** Commits runs of one kind in order; returns the slices of the first failed run and after. */
  private List<Slice> commitInRuns(String table, List<Slice> slices) {
    int i = 0;
    while (i < slices.size()) {
      TableRegistrar.Kind kind = kindOf(slices.get(i).change());
      int j = i + 1;
      boolean batches = kind == TableRegistrar.Kind.APPEND || kind == TableRegistrar.Kind.RECONCILE;
      while (batches && j < slices.size() && kindOf(slices.get(j).change()) == kind) {
        j++;
      }
      try {
        registrar.commit(table, kind, slices.subList(i, j));
      } catch (RuntimeException e) {
        LOG.error(
            "Could not register {} change(s) of lake table {} in Iceberg; trying again later: {}",
            j - i,
            table,
            e.toString());
        return new ArrayList<>(slices.subList(i, slices.size()));
      }
      i = j;
    }
    return List.of();
  }

  /** The changes of TPs whose lake log still names their writer's epoch as the newest. */
  private List<Change> owned(List<Change> work) {
    // By TP and epoch: this task may have reopened a TP (a new epoch) with changes of its last
    // epoch still queued; those are dropped, the new epoch's kept.
    Map<Map.Entry<TopicPartition, Long>, Boolean> owns = new HashMap<>();
    Set<TopicPartition> unreadable = new HashSet<>();
    List<Change> kept = new ArrayList<>();
    for (Change change : work) {
      if (unreadable.contains(change.tp())) {
        pending.add(change); // stays in order behind the change that could not be checked
        continue;
      }
      Map.Entry<TopicPartition, Long> writer = Map.entry(change.tp(), change.epoch());
      Boolean owner = owns.get(writer);
      if (owner == null) {
        try {
          owner = ownership.owns(change.tp(), change.epoch(), change.logSeq());
        } catch (IOException | RuntimeException e) {
          LOG.warn("Cannot read the log of {}; registering later: {}", change.tp(), e.toString());
          unreadable.add(change.tp());
          pending.add(change);
          continue;
        }
        owns.put(writer, owner);
        if (!owner) {
          LOG.info(
              "{} was claimed by a newer writer than epoch {}: it registers what this writer"
                  + " committed; dropping this writer's queued changes",
              change.tp(),
              change.epoch());
        }
      }
      if (owner) {
        kept.add(change);
      }
    }
    return kept;
  }

  private Map<String, Slice> slices(Change change) {
    Map<String, List<LiveFile>> added = new LinkedHashMap<>();
    Map<String, List<LiveFile>> removed = new LinkedHashMap<>();
    List<LiveFile> adds = change.added();
    List<LiveFile> removes = change.removed();
    adds.forEach(f -> added.computeIfAbsent(files.tableOf(f.key()), t -> new ArrayList<>()).add(f));
    removes.forEach(
        f -> removed.computeIfAbsent(files.tableOf(f.key()), t -> new ArrayList<>()).add(f));
    Map<String, Slice> slices = new LinkedHashMap<>();
    Set<String> tables = new java.util.LinkedHashSet<>(added.keySet());
    tables.addAll(removed.keySet());
    for (String table : tables) {
      slices.put(
          table,
          new Slice(
              change,
              added.getOrDefault(table, List.of()),
              removed.getOrDefault(table, List.of())));
    }
    return slices;
  }

  private static TableRegistrar.Kind kindOf(Change change) {
    return change.kind();
  }
}
