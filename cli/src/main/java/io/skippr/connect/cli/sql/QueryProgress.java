package io.skippr.connect.cli.sql;

import io.skippr.connect.common.MdcThreadFactory;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A one-line progress bar on the terminal while a long query runs, from DuckDB's own estimate of
 * how much of its scans is done. Silent when the output is not a terminal, and for queries that end
 * within the first second.
 */
final class QueryProgress {
  /** No progress shown. */
  static final QueryProgress NONE = new QueryProgress(null);

  private static final long FIRST_MS = 1000;
  private static final long EVERY_MS = 250;
  private static final int WIDTH = 30;

  private final PrintWriter terminal;

  /**
   * @param terminal where the bar goes, or null for none
   */
  QueryProgress(PrintWriter terminal) {
    this.terminal = terminal;
  }

  /** Progress on {@code err} when this process runs on a terminal. */
  static QueryProgress onTerminal(PrintWriter err) {
    return System.console() == null ? NONE : new QueryProgress(err);
  }

  /** How far the running query is, in percent, as DuckDB estimates it; negative when unknown. */
  interface Probe {
    double percent() throws SQLException;
  }

  /** Stops showing progress. */
  interface Watch extends AutoCloseable {
    @Override
    void close();
  }

  /** Shows the progress {@code probe} reads until closed. */
  Watch watch(Probe probe) {
    return terminal == null ? () -> {} : new Bar(terminal, probe);
  }

  static String bar(double percent) {
    int done = (int) Math.round(Math.min(100, percent) * WIDTH / 100);
    return String.format(
        Locale.ROOT, "[%s%s] %3.0f%%", "#".repeat(done), " ".repeat(WIDTH - done), percent);
  }

  /** The bar of one query: redrawn by a timer thread, wiped when the query ends. */
  private static final class Bar implements Watch {
    private final PrintWriter terminal;
    private final Probe probe;
    private final ScheduledExecutorService timer;
    private boolean shown;
    private boolean closed;

    Bar(PrintWriter terminal, Probe probe) {
      this.terminal = terminal;
      this.probe = probe;
      this.timer =
          Executors.newSingleThreadScheduledExecutor(new MdcThreadFactory("skippr-sql-progress"));
      timer.scheduleAtFixedRate(this::draw, FIRST_MS, EVERY_MS, TimeUnit.MILLISECONDS);
    }

    private void draw() {
      double percent;
      try {
        percent = probe.percent();
      } catch (SQLException | RuntimeException e) {
        return; // the query ended meanwhile: nothing to show
      }
      synchronized (this) {
        if (!closed && percent >= 0) {
          terminal.print("\r" + bar(percent));
          terminal.flush();
          shown = true;
        }
      }
    }

    @Override
    public void close() {
      timer.shutdownNow();
      synchronized (this) {
        closed = true;
        if (shown) {
          terminal.print("\r" + " ".repeat(bar(100).length()) + "\r");
          terminal.flush();
        }
      }
    }
  }
}
