package io.skippr.connect.it.bench;

import io.skippr.connect.testkit.Await;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Slow clients for the benchmark: each announces a 100,000-byte body and sends one byte per second;
 * when the server answers (408 below the minimum data rate) and closes, it connects again at once,
 * so {@code count} slow uploads stay connected all the time.
 */
final class SlowUploads implements AutoCloseable {

  private final int port;
  private final Socket[] sockets;
  private final AtomicInteger refused = new AtomicInteger();
  private final ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();

  SlowUploads(int port, int count) throws IOException {
    this.port = port;
    this.sockets = new Socket[count];
    for (int i = 0; i < count; i++) {
      sockets[i] = open();
    }
    trickle.scheduleWithFixedDelay(this::tick, 1, 1, TimeUnit.SECONDS);
  }

  private Socket open() throws IOException {
    Socket socket = new Socket();
    socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
    OutputStream out = socket.getOutputStream();
    out.write(
        "POST /write HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\nm"
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return socket;
  }

  /** One byte on every connection; a connection the server closed is opened again. */
  private void tick() {
    for (int i = 0; i < sockets.length; i++) {
      try {
        if (sockets[i].getInputStream().available() > 0) {
          throw new IOException("answered");
        }
        sockets[i].getOutputStream().write('1');
        sockets[i].getOutputStream().flush();
      } catch (IOException e) {
        refused.incrementAndGet();
        try {
          sockets[i].close();
          sockets[i] = open();
        } catch (IOException again) {
          // the server is at its connection limit: try on the next tick
        }
      }
    }
  }

  void awaitConnected() {
    Await.until(
        Duration.ofSeconds(30),
        "slow clients connected",
        () -> {
          for (Socket s : sockets) {
            if (!s.isConnected()) {
              return false;
            }
          }
          return true;
        });
  }

  /** Slow uploads the server answered and closed (then opened again). */
  int refused() {
    return refused.get();
  }

  @Override
  public void close() throws IOException {
    trickle.shutdownNow();
    List<IOException> failures = new ArrayList<>();
    for (Socket s : sockets) {
      try {
        s.close();
      } catch (IOException e) {
        failures.add(e);
      }
    }
    if (!failures.isEmpty()) {
      throw failures.get(0);
    }
  }
}
