package io.skippr.connect.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A DynamoDB-compatible server (npm {@code dynalite}) on 127.0.0.1 and a free port, run as a
 * separate Node.js process and stopped by PID.
 *
 * <p>The package lives in {@code testkit/servers/dynalite} (package.json + lockfile); on first use
 * the fixture runs {@code npm ci} there, so a fresh clone needs nothing but Node.js and npm.
 */
public final class DynaliteServer implements AutoCloseable {
  /** System property overriding where {@code testkit/servers/dynalite} is. */
  public static final String DIR_PROPERTY = "skippr.dynalite.dir";

  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  private final Process process;
  private final int port;
  private final Path log;
  private final Thread exitHook;

  private DynaliteServer(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
    this.exitHook =
        LocalProcesses.onJvmExit(
            "stop-dynalite", () -> LocalProcesses.stop(process.toHandle(), Duration.ofSeconds(2)));
  }

  /** Starts an in-memory server. */
  public static DynaliteServer start() {
    return start(null);
  }

  /** Starts a server keeping its tables in LevelDB under {@code dataDirectory} (null: memory). */
  public static DynaliteServer start(Path dataDirectory) {
    return start(dataDirectory, Duration.ZERO);
  }

  /**
   * Starts a server whose tables stay CREATING/DELETING/UPDATING for {@code tableStateDelay}, as
   * real DynamoDB's do, to test code that waits for a table to become ACTIVE.
   */
  public static DynaliteServer start(Path dataDirectory, Duration tableStateDelay) {
    Path home = LocalProcesses.repositoryFolder("testkit/servers/dynalite", DIR_PROPERTY);
    install(home);
    IllegalStateException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return launch(home, dataDirectory, tableStateDelay, LocalProcesses.freePort());
      } catch (IllegalStateException e) {
        last = e; // most likely lost the race for the port: try another
      }
    }
    throw last;
  }

  public int port() {
    return port;
  }

  public URI endpoint() {
    return URI.create("http://" + LocalProcesses.LOOPBACK + ":" + port);
  }

  public long pid() {
    return process.pid();
  }

  @Override
  public void close() {
    LocalProcesses.cancelOnJvmExit(exitHook);
    LocalProcesses.stop(process.toHandle(), Duration.ofSeconds(5));
    try {
      Files.deleteIfExists(log);
    } catch (IOException e) {
      // a stray log file in the temp directory is harmless
    }
  }

  private static DynaliteServer launch(
      Path home, Path dataDirectory, Duration tableStateDelay, int port) {
    String delay = Long.toString(tableStateDelay.toMillis());
    List<String> command = new ArrayList<>();
    command.addAll(
        List.of(
            "node",
            home.resolve("node_modules/dynalite/cli.js").toString(),
            "--host",
            LocalProcesses.LOOPBACK,
            "--port",
            Integer.toString(port),
            "--createTableMs",
            delay,
            "--deleteTableMs",
            delay,
            "--updateTableMs",
            delay));
    if (dataDirectory != null) {
      command.addAll(List.of("--path", dataDirectory.toAbsolutePath().toString()));
    }
    try {
      Path log = Files.createTempFile("dynalite", ".log");
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      DynaliteServer server = new DynaliteServer(process, port, log);
      try {
        Await.until(
            START_TIMEOUT,
            () -> "dynalite on port " + port + " (log: " + read(log) + ")",
            () -> !process.isAlive() || LocalProcesses.accepts(port));
      } catch (AssertionError e) {
        server.close();
        throw new IllegalStateException(e.getMessage(), e);
      }
      if (!process.isAlive()) {
        String output = read(log);
        server.close();
        throw new IllegalStateException("dynalite exited: " + output);
      }
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start dynalite (is Node.js installed?)", e);
    }
  }

  /** {@code npm ci} once per checkout; a file lock keeps parallel test JVMs from racing. */
  private static void install(Path home) {
    Path marker = home.resolve("node_modules/dynalite/cli.js");
    if (Files.exists(marker)) {
      return;
    }
    try (FileChannel channel =
        FileChannel.open(
            home.resolve(".install.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      FileLock lock = channel.lock();
      try {
        if (!Files.exists(marker)) {
          LocalProcesses.run(
              List.of("npm", "ci", "--no-audit", "--no-fund"), home, Duration.ofMinutes(5));
        }
      } finally {
        lock.release();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot install dynalite in " + home, e);
    }
  }

  private static String read(Path log) {
    try {
      return Files.readString(log).strip();
    } catch (IOException e) {
      return "(no log)";
    }
  }
}
