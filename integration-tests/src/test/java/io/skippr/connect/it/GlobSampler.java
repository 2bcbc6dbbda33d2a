package io.skippr.connect.it;

import io.skippr.connect.testkit.DuckDbLake;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * A reader that counts a table through a glob every ~100 ms on a thread of its own, as a user's
 * query engine would while the sink writes and merges: each sample lists the files the glob
 * matches, then reads them. A sample that finds a listed file gone (retired between the listing and
 * the read) failed loudly, as the reader would, and is counted, not judged.
 */
final class GlobSampler implements AutoCloseable {
  private static final long PACE_MILLIS = 100;

  /** What one read of the glob counted. */
  record Counts(long rows, long distinct) {}

  /** One read of the glob; throws {@link FileGone} when a listed file was gone when read. */
  interface Reader {
    Counts read();
  }

  /** A listed file was gone when read: the reader's query fails and can be retried. */
  static final class FileGone extends RuntimeException {
    private static final long serialVersionUID = 1L;

    FileGone(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * A successful sample.
   *
   * @param produced records produced (sent) when the read ended: an upper bound of what landed
   */
  record Sample(Counts counts, long produced) {}

  private final Reader reader;
  private final LongSupplier produced;
  private final Thread thread;
  private final List<Sample> samples = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();
  private volatile boolean running = true;
  private volatile RuntimeException broken;

  GlobSampler(String name, Reader reader, LongSupplier produced) {
    this.reader = reader;
    this.produced = produced;
    this.thread = new Thread(this::run, "glob-sampler-" + name);
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (running) {
      try {
        Counts counts = reader.read();
        long bound = produced.getAsLong();
        synchronized (this) {
          samples.add(new Sample(counts, bound));
        }
      } catch (FileGone e) {
        synchronized (this) {
          failures.add(e.getMessage());
        }
      } catch (RuntimeException e) {
        broken = e;
        return;
      }
      try {
        Thread.sleep(PACE_MILLIS); // the reader's pace, not a wait for a condition
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  synchronized List<Sample> samples() {
    return List.copyOf(samples);
  }

  synchronized List<String> failures() {
    return List.copyOf(failures);
  }

  /** Stops sampling; throws what broke the reader other than a file gone. */
  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.join(120_000);
    if (broken != null) {
      throw new IllegalStateException("the glob reader broke", broken);
    }
  }

  /**
   * DuckDB's own glob over {@code <table>/**}{@code /*.parquet}: rows, and distinct values of
   * {@code identity} (a column, or an expression such as a struct of columns).
   */
  static Reader duckDbGlob(Path table, String identity) {
    DuckDbLake duck = new DuckDbLake(table.getParent());
    return () -> {
      if (!hasParquet(table)) {
        return new Counts(0, 0);
      }
      try {
        Map<String, Object> counts =
            duck.query(
                    "select count(*)::bigint as n, count(distinct "
                        + identity
                        + ")::bigint as d from read_parquet('"
                        + table
                        + "/**/*.parquet')")
                .get(0);
        return new Counts((Long) counts.get("n"), (Long) counts.get("d"));
      } catch (IllegalStateException e) {
        String why = String.valueOf(e.getCause() == null ? e : e.getCause().getMessage());
        if (isFileGone(why)) {
          throw new FileGone(why, e);
        }
        throw e;
      }
    };
  }

  /**
   * Whether DuckDB's error says a file it was given (or its glob listed) was not there when it
   * opened it.
   */
  static boolean isFileGone(String error) {
    return error.contains("No such file")
        || error.contains("Cannot open file")
        || error.contains("No files found that match the pattern");
  }

  static boolean hasParquet(Path table) {
    if (!Files.isDirectory(table)) {
      return false;
    }
    try (Stream<Path> files = Files.walk(table)) {
      return files.anyMatch(p -> p.toString().endsWith(".parquet"));
    } catch (IOException | UncheckedIOException e) {
      return true; // a file vanished mid-walk: there are files
    }
  }

  /** Samples that counted a record twice, or more records than were produced. */
  synchronized List<Sample> wrong() {
    List<Sample> wrong = new ArrayList<>();
    for (Sample sample : samples) {
      if (sample.counts().rows() != sample.counts().distinct()
          || sample.counts().rows() > sample.produced()) {
        wrong.add(sample);
      }
    }
    return wrong;
  }
}
