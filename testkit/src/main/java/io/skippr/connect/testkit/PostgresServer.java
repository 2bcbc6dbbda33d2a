package io.skippr.connect.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A throwaway PostgreSQL 15 cluster on 127.0.0.1 and a free port, with {@code wal_level=logical}
 * for CDC tests: {@code initdb -A trust} in a temp directory, started with {@code pg_ctl}, run as
 * the {@code postgres} user when the tests run as root, stopped and deleted on close.
 */
public final class PostgresServer implements AutoCloseable {
  /** System property overriding the PostgreSQL binaries directory. */
  public static final String BIN_PROPERTY = "skippr.postgres.bin";

  public static final String USER = "postgres";
  public static final String DATABASE = "postgres";
  private static final String DEFAULT_BIN = "/usr/lib/postgresql/15/bin";
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final Path bin;
  private final Path root;
  private final int port;
  private final long pid;
  private final Thread exitHook;

  private PostgresServer(Path bin, Path root, int port, long pid) {
    this.bin = bin;
    this.root = root;
    this.port = port;
    this.pid = pid;
    this.exitHook = LocalProcesses.onJvmExit("stop-postgres", this::killAndDelete);
  }

  public static PostgresServer start() {
    Path bin = Path.of(System.getProperty(BIN_PROPERTY, DEFAULT_BIN));
    if (!Files.isExecutable(bin.resolve("initdb"))) {
      throw new IllegalStateException(
          "PostgreSQL binaries not found in "
              + bin
              + ": install postgresql-15 or set -D"
              + BIN_PROPERTY);
    }
    Path root = createRoot();
    try {
      asPostgres(
          List.of(
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
              root.resolve("data").toString()),
          root);
      int port = LocalProcesses.freePort();
      String options =
          "-p "
              + port
              + " -c listen_addresses="
              + LocalProcesses.LOOPBACK
              + " -c wal_level=logical -c fsync=off -c max_wal_senders=10"
              + " -c max_replication_slots=10 -c unix_socket_directories="
              + root;
      asPostgres(
          List.of(
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
              "start"),
          root);
      long pid =
          Long.parseLong(Files.readAllLines(root.resolve("data/postmaster.pid")).get(0).strip());
      return new PostgresServer(bin, root, port, pid);
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

  /** Runs SQL with {@code psql} (no JDBC driver needed) and returns its unaligned output. */
  public String psql(String sql) {
    return asPostgres(
        List.of(
            bin.resolve("psql").toString(),
            "-h",
            host(),
            "-p",
            Integer.toString(port),
            "-U",
            USER,
            "-d",
            DATABASE,
            "-v",
            "ON_ERROR_STOP=1",
            "-A",
            "-t",
            "-c",
            sql),
        root);
  }

  @Override
  public void close() {
    try {
      asPostgres(
          List.of(
              bin.resolve("pg_ctl").toString(),
              "-D",
              root.resolve("data").toString(),
              "-m",
              "fast",
              "-w",
              "stop"),
          root);
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

  private static Path createRoot() {
    try {
      Path root = Files.createTempDirectory("skippr-pg");
      if (isRoot()) {
        LocalProcesses.run(List.of("chown", USER + ":", root.toString()), root, TIMEOUT);
      }
      return root;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a PostgreSQL directory", e);
    }
  }

  /** PostgreSQL refuses to run as root: switch to the postgres user when we are root. */
  private static String asPostgres(List<String> command, Path directory) {
    List<String> full = new ArrayList<>();
    if (isRoot()) {
      full.addAll(List.of("runuser", "-u", USER, "--"));
    }
    full.addAll(command);
    return LocalProcesses.run(full, directory, TIMEOUT);
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }
}
