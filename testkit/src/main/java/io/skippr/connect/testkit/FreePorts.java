package io.skippr.connect.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Ports free right now on 127.0.0.1 (a server must still cope with losing a race for one). */
public final class FreePorts {
  private FreePorts() {}

  /** One free port. */
  public static int one() {
    return take(1)[0];
  }

  /** {@code count} distinct free ports: all are held open until every one is found. */
  public static int[] take(int count) {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      int[] ports = new int[count];
      for (int i = 0; i < count; i++) {
        ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        socket.setReuseAddress(true);
        sockets.add(socket);
        ports[i] = socket.getLocalPort();
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on 127.0.0.1", e);
    } finally {
      for (ServerSocket socket : sockets) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // the port is released either way
        }
      }
    }
  }
}
