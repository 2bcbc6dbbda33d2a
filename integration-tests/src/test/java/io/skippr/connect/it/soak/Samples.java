package io.skippr.connect.it.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The soak's samples: one row of numbers per sample under fixed column names, the first being
 * {@value #TIME} (seconds since the load started), and the worker kills. Every row is appended to a
 * CSV file as it is taken, so a run that dies still leaves its data. A missing value is NaN (an
 * empty field in the CSV).
 */
public final class Samples {
  /** Seconds since the load started. */
  public static final String TIME = "t_s";

  /** The worker process number: 0 for the first, n after the n-th kill. */
  public static final String WORKER = "worker";

  /** Seconds since the sampled worker became ready; NaN while no worker is ready. */
  public static final String WORKER_UP = "worker_up_s";

  /** A SIGKILL of the worker and when its successor was ready, in seconds since the start. */
  public record Kill(double killedAt, double readyAt) {}

  private final List<String> columns;
  private final List<double[]> rows = new ArrayList<>();
  private final List<Kill> kills = new ArrayList<>();
  private final Path csv;
  private final Path killsCsv;

  /** Samples under these columns (after the three above), written to {@code dir/samples.csv}. */
  public Samples(Path dir, List<String> series) throws IOException {
    List<String> all = new ArrayList<>(List.of(TIME, WORKER, WORKER_UP));
    all.addAll(series);
    this.columns = List.copyOf(all);
    this.csv = dir.resolve("samples.csv");
    this.killsCsv = dir.resolve("kills.csv");
    Files.writeString(csv, String.join(",", columns) + "\n", StandardCharsets.UTF_8);
    Files.writeString(killsCsv, "killed_at_s,ready_at_s\n", StandardCharsets.UTF_8);
  }

  public List<String> columns() {
    return columns;
  }

  /** Adds a sample: values by column name; columns it lacks are NaN, names it has beyond fail. */
  public synchronized void add(Map<String, Double> values) {
    double[] row = new double[columns.size()];
    java.util.Arrays.fill(row, Double.NaN);
    values.forEach(
        (name, value) -> {
          int i = columns.indexOf(name);
          if (i < 0) {
            throw new IllegalArgumentException("no column " + name + " in " + columns);
          }
          row[i] = value == null ? Double.NaN : value;
        });
    rows.add(row);
    append(csv, line(row));
  }

  public synchronized void killed(double killedAt, double readyAt) {
    kills.add(new Kill(killedAt, readyAt));
    append(killsCsv, number(killedAt) + "," + number(readyAt) + "\n");
  }

  public synchronized List<Kill> kills() {
    return List.copyOf(kills);
  }

  public synchronized int size() {
    return rows.size();
  }

  /** The values of one column, in sample order. */
  public synchronized double[] column(String name) {
    int i = columns.indexOf(name);
    if (i < 0) {
      throw new IllegalArgumentException("no column " + name + " in " + columns);
    }
    double[] values = new double[rows.size()];
    for (int r = 0; r < rows.size(); r++) {
      values[r] = rows.get(r)[i];
    }
    return values;
  }

  private static String line(double[] row) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < row.length; i++) {
      line.append(i == 0 ? "" : ",").append(number(row[i]));
    }
    return line.append('\n').toString();
  }

  private static String number(double value) {
    if (Double.isNaN(value)) {
      return "";
    }
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return String.format(Locale.ROOT, "%.3f", value);
  }

  private static void append(Path file, String text) {
    try (Writer out =
        Files.newBufferedWriter(
            file, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND)) {
      out.write(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
