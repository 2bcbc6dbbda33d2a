package io.skippr.connect.lake.write;

import io.skippr.connect.common.MdcThreadFactory;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the file writes of one unit, up to a fixed number at once. A unit's files are independent
 * (the intent named them all before any is written), so only the caller waits: {@link #runAll}
 * returns once every write has ended, never leaving one running behind a failure. With a
 * concurrency of 1 the caller's thread writes them itself.
 */
final class FileWritePool implements AutoCloseable {
  /** One file's write. */
  @FunctionalInterface
  interface Job<T> {
    T run() throws IOException;
  }

  private final ThreadPoolExecutor executor;

  FileWritePool(int concurrency) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
    }
    this.executor = concurrency == 1 ? null : TaskThreads.pool("lake-sink-files", concurrency);
  }

  /**
   * Runs every job and returns their results in the jobs' order. When one fails, the jobs not yet
   * begun are skipped, those running are awaited, and the first failure is thrown with any later
   * ones suppressed.
   */
  <T> List<T> runAll(List<Job<T>> jobs) throws IOException {
    List<T> results = new ArrayList<>(jobs.size());
    if (executor == null || jobs.size() < 2) {
      for (Job<T> job : jobs) {
        results.add(job.run());
      }
      return results;
    }
    AtomicBoolean failed = new AtomicBoolean();
    List<Future<T>> futures = new ArrayList<>(jobs.size());
    for (Job<T> job : jobs) {
      futures.add(
          executor.submit(MdcThreadFactory.withCallersMdc(() -> runUnlessFailed(job, failed))));
    }
    Throwable failure = null;
    boolean interrupted = false;
    for (Future<T> future : futures) {
      while (true) {
        try {
          results.add(future.get());
          break;
        } catch (ExecutionException e) {
          failed.set(true);
          failure = first(failure, e.getCause());
          break;
        } catch (InterruptedException e) {
          // Keep waiting: no write may outlive this call. Skip what has not begun.
          failed.set(true);
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
      failure = first(failure, new InterruptedIOException("interrupted while writing files"));
    }
    if (failure != null) {
      throw rethrown(failure);
    }
    return results;
  }

  @Override
  public void close() {
    if (executor != null) {
      executor.shutdownNow();
    }
  }

  private static <T> T runUnlessFailed(Job<T> job, AtomicBoolean failed) throws IOException {
    if (failed.get()) {
      return null;
    }
    try {
      return job.run();
    } catch (IOException | RuntimeException | Error e) {
      failed.set(true);
      throw e;
    }
  }

  private static Throwable first(Throwable failure, Throwable next) {
    if (failure == null) {
      return next;
    }
    if (next != failure) {
      failure.addSuppressed(next);
    }
    return failure;
  }

  private static IOException rethrown(Throwable failure) {
    if (failure instanceof IOException io) {
      return io;
    }
    if (failure instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (failure instanceof Error error) {
      throw error;
    }
    return new IOException(failure);
  }
}
