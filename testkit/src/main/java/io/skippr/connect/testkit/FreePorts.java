package io.skippr.connect.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ports free right now on 127.0.0.1, for servers a test starts later.
 *
 * <p>They come from below the kernel's ephemeral range: a port the OS hands out for {@code bind(0)}
 * or an outgoing connection (the broker's clients, S3Mock, dynalite) can take an ephemeral port
 * between the moment it is found free and the moment its server binds it, which made a worker fail
 * with "Address already in use". Below that range only servers given an explicit port bind, and
 * this JVM never hands out the same port twice.
 */
public final class FreePorts {
  private static final int LOWEST = 10_000;
  private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
  private static final int HIGHEST = ephemeralStart() - 1;
  // A random start, so two JVMs on one machine rarely walk the same ports.
  private static final AtomicInteger NEXT =
      new AtomicInteger(ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST));

  private FreePorts() {}

  /** One free port. */
  public static int one() {
    int span = HIGHEST - LOWEST + 1;
    for (int tried = 0; tried < span; tried++) {
      int port = LOWEST + Math.floorMod(NEXT.getAndIncrement() - LOWEST, span);
      if (bindable(port)) {
        return port;
      }
    }
    throw new IllegalStateException("no free port on 127.0.0.1 in " + LOWEST + "-" + HIGHEST);
  }

  /** {@code count} distinct free ports. */
  public static int[] take(int count) {
    int[] ports = new int[count];
    for (int i = 0; i < count; i++) {
      ports[i] = one();
    }
    return ports;
  }

  private static boolean bindable(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException inUse) {
      return false;
    }
  }

  private static int ephemeralStart() {
    try {
      // readAllLines: Files.readString reads a procfs file that reports size 0 as one byte
      String range = Files.readAllLines(EPHEMERAL_RANGE).get(0).strip();
      int start = Integer.parseInt(range.split("\\s+")[0]);
      return start > LOWEST + 1000 ? start : 32_768;
    } catch (IOException | RuntimeException notLinux) {
      return 32_768; // Linux's default; macOS starts at 49152
    }
  }
}
