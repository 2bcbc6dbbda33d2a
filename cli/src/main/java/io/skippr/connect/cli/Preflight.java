package io.skippr.connect.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/** Checks that fail fast, with one line the user can act on, before anything starts. */
final class Preflight {
  private Preflight() {}

  static void requireFreePort(int port, String option) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    } catch (IOException e) {
      throw new StartupException(
          "port " + port + " on 127.0.0.1 is already in use (choose another with " + option + ")");
    }
  }

  static void requireWritableDir(Path dir) {
    try {
      Files.createDirectories(dir);
      Path probe = Files.createTempFile(dir, ".write-check", ".tmp");
      Files.delete(probe);
    } catch (IOException | SecurityException e) {
      throw new StartupException(
          "data directory " + dir + " is not writable (set DATA_DIR or --data-dir): " + e);
    }
  }

  static void requirePluginDir(Path pluginDir) {
    if (!Files.isDirectory(pluginDir)) {
      throw new StartupException(
          "plugin directory " + pluginDir + " not found (build it with `mvn package`)");
    }
  }
}
