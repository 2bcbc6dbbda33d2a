package io.skippr.connect.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A throwaway PostgreSQL cluster on 127.0.0.1 and a free port, with {@code wal_level=logical} for
 * CDC tests: {@code initdb -A trust} in a temp directory, started with {@code pg_ctl}, stopped and
 * deleted on close.
 *
 * <p>The binaries come from Maven ({@link PostgresBinaries}), so no system PostgreSQL is needed;
 * {@code -D}{@value #BIN_PROPERTY} points at another {@code bin} directory instead. PostgreSQL
 * refuses to run as root: when the tests run as root, every PostgreSQL command runs through {@code
 * setpriv} as the existing unprivileged user {@value #DEFAULT_OS_USER} (or {@code -D}{@value
 * #OS_USER_PROPERTY}), which owns the cluster's directory; nothing is created system-wide.
 */
public final class PostgresServer implements AutoCloseable {
  /** System property overriding the PostgreSQL binaries directory. */
  public static final String BIN_PROPERTY = "skippr.postgres.bin";

  /** System property naming the OS user that runs PostgreSQL when the tests run as root. */
  public static final String OS_USER_PROPERTY = "skippr.postgres.os.user";

  /** The database superuser (a PostgreSQL role, not an OS user). */
  public static final String USER = "postgres";

  public static final String DATABASE = "postgres";
  private static final String DEFAULT_OS_USER = "nobody";
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final Path bin;
  private final Path root;
  private final int port;
  private final long pid;
  private final List<String> runAs;
  private final Thread exitHook;

  private PostgresServer(Path bin, Path root, int port, long pid, List<String> runAs) {
    this.bin = bin;
    this.root = root;
    this.port = port;
    this.pid = pid;
    this.runAs = runAs;
    this.exitHook = LocalProcesses.onJvmExit("stop-postgres", this::killAndDelete);
  }

  public static PostgresServer start() {
    String override = System.getProperty(BIN_PROPERTY);
    Path bin = override != null ? Path.of(override) : PostgresBinaries.bin();
    if (!Files.isExecutable(bin.resolve("initdb"))) {
      throw new IllegalStateException("no PostgreSQL initdb in " + bin);
    }
    List<String> runAs = isRoot() ? unprivileged() : List.of();
    Path root = createRoot(runAs);
    try {
      run(
          runAs,
          root,
          bin.resolve("initdb").toString(),
          "-A",
          "trust",
          "-U",
          USER,
          "-E",
          "UTF8",
          "--locale=C",
          "--no-sync",
          "-D",
          root.resolve("data").toString());
      int port = LocalProcesses.freePort();
      String options =
          "-p "
              + port
              + " -c listen_addresses="
              + LocalProcesses.LOOPBACK
              + " -c wal_level=logical -c fsync=off -c max_wal_senders=10"
              + " -c max_replication_slots=10 -c unix_socket_directories="
              + root;
      run(
          runAs,
          root,
          bin.resolve("pg_ctl").toString(),
          "-D",
          root.resolve("data").toString(),
          "-l",
          root.resolve("server.log").toString(),
          "-w",
          "-t",
          "60",
          "-o",
          options,
          "start");
      long pid =
          Long.parseLong(Files.readAllLines(root.resolve("data/postmaster.pid")).get(0).strip());
      return new PostgresServer(bin, root, port, pid, runAs);
    } catch (IOException | RuntimeException e) {
      LocalProcesses.deleteTree(root);
      throw new IllegalStateException("cannot start PostgreSQL: " + e.getMessage(), e);
    }
  }

  public String host() {
    return LocalProcesses.LOOPBACK;
  }

  public int port() {
    return port;
  }

  /** PID of the postmaster. */
  public long pid() {
    return pid;
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://" + host() + ":" + port + "/" + DATABASE;
  }

  /**
   * Runs SQL over JDBC and returns what {@code psql -A -t} would print: one line per row, columns
   * separated by {@code |}; empty for statements without rows.
   */
  public String psql(String sql) {
    try (Connection connection = DriverManager.getConnection(jdbcUrl(), USER, "");
        Statement statement = connection.createStatement()) {
      if (!statement.execute(sql)) {
        return "";
      }
      StringBuilder out = new StringBuilder();
      try (ResultSet rows = statement.getResultSet()) {
        int columns = rows.getMetaData().getColumnCount();
        while (rows.next()) {
          for (int c = 1; c <= columns; c++) {
            out.append(c > 1 ? "|" : "").append(rows.getString(c) == null ? "" : rows.getString(c));
          }
          out.append('\n');
        }
      }
      return out.toString();
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try {
      run(
          runAs,
          root,
          bin.resolve("pg_ctl").toString(),
          "-D",
          root.resolve("data").toString(),
          "-m",
          "fast",
          "-w",
          "stop");
    } catch (RuntimeException e) {
      // fall through to killing the postmaster by PID
    }
    LocalProcesses.cancelOnJvmExit(exitHook);
    killAndDelete();
  }

  private void killAndDelete() {
    Optional<ProcessHandle> postmaster = ProcessHandle.of(pid);
    postmaster.ifPresent(p -> LocalProcesses.stop(p, Duration.ofSeconds(5)));
    LocalProcesses.deleteTree(root);
  }

  /** The cluster's directory, owned by the user PostgreSQL runs as. */
  private static Path createRoot(List<String> runAs) {
    try {
      Path root = Files.createTempDirectory("skippr-pg");
      if (!runAs.isEmpty()) {
        Unprivileged.chown(root, osUser());
      }
      return root;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a PostgreSQL directory", e);
    }
  }

  /** {@code setpriv} to the existing unprivileged user ({@link Unprivileged#setpriv}). */
  private static List<String> unprivileged() {
    String user = osUser();
    try {
      return Unprivileged.setpriv(user);
    } catch (IllegalStateException e) {
      throw new IllegalStateException(
          "the tests run as root, which PostgreSQL refuses, and there is no user '"
              + user
              + "' to run it as: set -D"
              + OS_USER_PROPERTY
              + " to an existing unprivileged user",
          e);
    }
  }

  private static String osUser() {
    return System.getProperty(OS_USER_PROPERTY, DEFAULT_OS_USER);
  }

  private static String run(List<String> runAs, Path directory, String... command) {
    List<String> full = new ArrayList<>(runAs);
    full.addAll(List.of(command));
    return LocalProcesses.run(full, directory, TIMEOUT);
  }

  private static boolean isRoot() {
    return Unprivileged.isRoot();
  }
}
