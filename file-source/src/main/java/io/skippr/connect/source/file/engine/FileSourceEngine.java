package io.skippr.connect.source.file.engine;

import io.skippr.connect.source.file.commit.CommittedOffsets;
import io.skippr.connect.source.file.commit.CompletedFiles;
import io.skippr.connect.source.file.commit.OffsetMirror;
import io.skippr.connect.source.file.metrics.FileSourceMetrics;
import io.skippr.connect.source.file.scan.DirectoryScanner;
import io.skippr.connect.source.file.track.FileCatalog;
import io.skippr.connect.source.file.track.FileOffset;
import io.skippr.connect.source.file.track.Phase;
import io.skippr.connect.source.file.track.TrackedFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.TransactionContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file source behind a task: lists the directory every poll interval, resolves new files'
 * committed offsets, reads a batch from the files that have bytes, and completes files whose last
 * record's offset Kafka has committed. Runs on the task's poll thread; {@link #committed} may come
 * from Connect's offset commit thread.
 */
public final class FileSourceEngine implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(FileSourceEngine.class);

  /** Longest wait of an idle poll while following files: how soon new lines are seen. */
  static final long FOLLOW_CHECK_MS = 100;

  /** Content bytes one poll reads at most (besides the record limit). */
  static final long MAX_BATCH_BYTES = 16L << 20;

  private final Parts parts;
  private final Object idle = new Object();
  private volatile boolean closed;
  private long nextListing;
  private int rotation;

  /** Whether the last listing found nothing more to read (see {@link #caughtUp}). */
  private volatile boolean caughtUp;

  /** What the engine is made of (see {@link FileSourceParts}). */
  record Parts(
      DirectoryScanner scanner,
      FileCatalog catalog,
      BatchReader reader,
      OffsetLookup offsets,
      CommittedOffsets committed,
      CompletedFiles completion,
      OffsetMirror mirror,
      FileSourceMetrics metrics,
      Supplier<OffsetStorageReader> offsetReader,
      Supplier<TransactionContext> transactions,
      LongSupplier clock,
      Settings settings) {}

  /**
   * @param followed file.tail
   * @param pollIntervalMs how often the directory is listed
   * @param minAgeMs how long an unlisted followed file stays quiet before it is closed
   * @param batchMaxRecords records per poll at most
   */
  record Settings(boolean followed, long pollIntervalMs, long minAgeMs, int batchMaxRecords) {}

  FileSourceEngine(Parts parts) {
    this.parts = parts;
  }

  /**
   * Whether every file listed has been read to its end: a poll right after a listing returned
   * nothing, and none since returned records. New files count from the next listing on.
   */
  public boolean caughtUp() {
    return caughtUp;
  }

  /** One batch of records, or null when there is nothing to read now (after a short wait). */
  public List<SourceRecord> poll() throws InterruptedException {
    List<SourceRecord> out;
    synchronized (this) {
      if (closed) {
        return null;
      }
      out = pollOnce();
    }
    if (out == null) {
      waitIdle();
    }
    return out;
  }

  private List<SourceRecord> pollOnce() {
    long now = parts.clock().getAsLong();
    boolean listed = now >= nextListing;
    if (listed) {
      list();
      nextListing = now + parts.settings().pollIntervalMs();
    }
    complete();
    watchFollowed(now);
    List<SourceRecord> out = read(now);
    if (out.isEmpty()) {
      caughtUp |= listed;
      parts.committed().refresh(parts.offsetReader().get());
      return null;
    }
    caughtUp = false;
    TransactionContext transactions = parts.transactions().get();
    if (transactions != null) {
      transactions.commitTransaction(); // connector-defined boundaries: one batch, one transaction
    }
    return out;
  }

  private void list() {
    List<TrackedFile> fresh = parts.catalog().reconcile(parts.scanner().list());
    if (!fresh.isEmpty()) {
      parts.offsets().resolve(fresh, parts.offsetReader().get());
    }
    for (TrackedFile f : fresh) {
      parts.metrics().lag(f.key().id(), f.current().relative(), () -> lag(f));
    }
  }

  private List<SourceRecord> read(long now) {
    List<SourceRecord> out = new ArrayList<>();
    Budget budget = new Budget(parts.settings().batchMaxRecords(), MAX_BATCH_BYTES);
    List<TrackedFile> readable = new ArrayList<>(parts.catalog().readable());
    if (parts.settings().followed() && !readable.isEmpty()) {
      Collections.rotate(readable, -(rotation++ % readable.size())); // no file starves
    }
    for (TrackedFile f : readable) {
      if (budget.exhausted()) {
        break;
      }
      boolean finished = !parts.settings().followed() || releasing(f, now);
      if (!parts.reader().read(f, out, budget, finished, now)) {
        nextListing = now; // the name holds another file now: list again at once
      }
    }
    return out;
  }

  private static long lag(TrackedFile f) {
    var current = f.current();
    return current == null || current.compressed() ? 0 : Math.max(0, current.size() - f.position());
  }

  /** Followed files at their end: read on when they grew, close those whose name went away. */
  private void watchFollowed(long now) {
    for (TrackedFile f : parts.catalog().inPhase(Phase.FOLLOWING)) {
      try {
        FileReading r = (FileReading) f.reading();
        if (r != null && r.shrank()) {
          nextListing = now; // truncated (copytruncate?): the listing tells what became of it
        } else if (r != null && (r.hasMore() || (releasing(f, now) && r.holdsPartialRecord()))) {
          f.moveTo(Phase.READING); // a read while releasing also sends an unterminated last line
        } else if (releasing(f, now)) {
          LOG.info("Closing {}: its name no longer matches and it is read to its end", f);
          parts.catalog().released(f);
        }
      } catch (IOException e) {
        LOG.warn("{}: cannot check for new lines ({})", f, e.toString());
      }
    }
  }

  private boolean releasing(TrackedFile f, long now) {
    return f.unlisted() && now - f.quietSinceMillis() >= parts.settings().minAgeMs();
  }

  /** Drained files whose last record's offset Kafka committed are kept, deleted or moved. */
  private void complete() {
    for (TrackedFile f : parts.catalog().inPhase(Phase.DRAINED)) {
      if (f.emittedPosition() >= 0 && !committedUpTo(f)) {
        continue;
      }
      switch (parts.completion().complete(f.current(), f.position())) {
        case KEPT -> {
          f.moveTo(Phase.DONE);
          completed(f);
        }
        case REMOVED -> {
          completed(f);
          parts.catalog().forget(f);
        }
        default -> {}
      }
    }
  }

  private boolean committedUpTo(TrackedFile f) {
    Map<String, Object> offset = parts.committed().committed(f.partition());
    if (offset == null) {
      return false;
    }
    try {
      return FileOffset.fromMap(offset).position() == f.emittedPosition();
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private void completed(TrackedFile f) {
    parts.metrics().completed();
    parts.committed().unwatch(f.partition());
    LOG.info("Completed {}: {} lines, {} bytes", f, f.line(), f.position());
  }

  /** From {@code SourceTask.commit()}: Kafka committed offsets; read and mirror them. */
  public void committed(OffsetStorageReader reader) {
    parts.committed().refresh(reader);
  }

  private void waitIdle() throws InterruptedException {
    long wait =
        parts.settings().followed()
            ? Math.min(FOLLOW_CHECK_MS, parts.settings().pollIntervalMs())
            : Math.max(1, nextListing - parts.clock().getAsLong());
    synchronized (idle) {
      if (!closed) {
        idle.wait(wait);
      }
    }
  }

  /** Stops: wakes an idle poll, waits for a poll in progress, closes the files, removes metrics. */
  @Override
  public void close() {
    closed = true;
    synchronized (idle) {
      idle.notifyAll();
    }
    synchronized (this) {
      for (TrackedFile f : parts.catalog().files()) {
        f.closeReading();
      }
      parts.mirror().close();
    }
    parts.metrics().close();
  }
}
