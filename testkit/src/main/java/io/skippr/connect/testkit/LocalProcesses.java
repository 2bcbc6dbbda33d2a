package io.skippr.connect.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Helpers for test servers run as local processes on 127.0.0.1. */
final class LocalProcesses {
  static final String LOOPBACK = "127.0.0.1";

  private LocalProcesses() {}

  static int freePort() {
    return FreePorts.one();
  }

  static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(LOOPBACK, port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Runs a command to completion; fails with its output when it exits non-zero or hangs. */
  static String run(List<String> command, Path directory, Duration timeout) {
    try {
      Path output = Files.createTempFile("skippr-cmd", ".log");
      try {
        Process process =
            new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        boolean done = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!done) {
          stop(process.toHandle(), Duration.ofSeconds(5));
        }
        String text = Files.readString(output, StandardCharsets.UTF_8);
        if (!done || process.exitValue() != 0) {
          throw new IllegalStateException(
              String.join(" ", command)
                  + (done ? " exited with " + process.exitValue() : " timed out after " + timeout)
                  + ":\n"
                  + text);
        }
        return text;
      } finally {
        Files.deleteIfExists(output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running " + command, e);
    }
  }

  /** Stops a process and its children by PID: TERM, then KILL after {@code grace}. */
  static void stop(ProcessHandle process, Duration grace) {
    List<ProcessHandle> children = process.descendants().toList();
    process.destroy();
    try {
      process.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      process.destroyForcibly();
    }
    children.forEach(ProcessHandle::destroyForcibly);
  }

  /** Runs {@code stop} if the JVM exits (e.g. a test run is interrupted) before it is cancelled. */
  static Thread onJvmExit(String name, Runnable stop) {
    Thread hook = new Thread(stop, name);
    Runtime.getRuntime().addShutdownHook(hook);
    return hook;
  }

  static void cancelOnJvmExit(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is already exiting and runs the hook itself
    }
  }

  /** Walks up from the working directory to find a folder of this repository. */
  static Path repositoryFolder(String relative, String overrideProperty) {
    String override = System.getProperty(overrideProperty);
    if (override != null) {
      return Path.of(override).toAbsolutePath();
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isDirectory(dir.resolve(relative))) {
        return dir.resolve(relative);
      }
    }
    throw new IllegalStateException(
        relative
            + " not found above "
            + Path.of("").toAbsolutePath()
            + "; set -D"
            + overrideProperty);
  }

  /** Recursively deletes a directory tree, ignoring what is already gone. */
  static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (var paths = Files.walk(root)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // Left-overs in the temp directory are harmless.
    }
  }
}
