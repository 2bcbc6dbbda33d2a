package io.skippr.connect.source.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Hostile clients on raw sockets: uploads that announce a body and then send nothing more (stalled)
 * or one byte per second (slow).
 */
final class RawUploads implements AutoCloseable {

  /** One upload: its socket and when it was opened. */
  static final class Upload {
    final Socket socket;
    final long openedNanos = System.nanoTime();
    volatile boolean slow;

    Upload(Socket socket) {
      this.socket = socket;
    }

    /**
     * Reads the answer's status line and then the connection to its end.
     *
     * @return the status, or -1 when the connection closed without an answer
     */
    int statusThenClose(Duration timeout) throws IOException {
      socket.setSoTimeout((int) timeout.toMillis());
      InputStream in = socket.getInputStream();
      StringBuilder head = new StringBuilder();
      int b;
      try {
        while ((b = in.read()) >= 0) {
          head.append((char) b);
        }
      } catch (SocketTimeoutException e) {
        throw new AssertionError("connection still open after " + timeout + ": " + head, e);
      } catch (IOException e) {
        // reset by the server after its answer: the connection is closed
      }
      String text = head.toString();
      return text.startsWith("HTTP/1.1 ") ? Integer.parseInt(text.substring(9, 12)) : -1;
    }

    /** The answer's text so far (status line, headers, body). */
    String readAll(Duration timeout) throws IOException {
      socket.setSoTimeout((int) timeout.toMillis());
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }

  private final int port;
  private final List<Upload> uploads = new ArrayList<>();
  private final ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();

  RawUploads(int port) {
    this.port = port;
    trickle.scheduleWithFixedDelay(this::oneByteEach, 1, 1, TimeUnit.SECONDS);
  }

  /** Uploads that send the headers of a 100,000-byte body and then 5 bytes of it. */
  List<Upload> stalled(int count) throws IOException {
    List<Upload> opened = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Upload upload = open("m v=1");
      opened.add(upload);
    }
    return opened;
  }

  /** Uploads that send the headers of a 100,000-byte body and then one byte per second. */
  List<Upload> slow(int count) throws IOException {
    List<Upload> opened = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Upload upload = open("m");
      upload.slow = true;
      opened.add(upload);
    }
    return opened;
  }

  private Upload open(String firstBytes) throws IOException {
    Socket socket = new Socket();
    socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
    OutputStream out = socket.getOutputStream();
    out.write(
        ("POST /write HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n" + firstBytes)
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    Upload upload = new Upload(socket);
    synchronized (uploads) {
      uploads.add(upload);
    }
    return upload;
  }

  private void oneByteEach() {
    List<Upload> all;
    synchronized (uploads) {
      all = new ArrayList<>(uploads);
    }
    for (Upload upload : all) {
      if (upload.slow && !upload.socket.isClosed()) {
        try {
          upload.socket.getOutputStream().write('1');
          upload.socket.getOutputStream().flush();
        } catch (IOException e) {
          upload.slow = false; // the server closed it
        }
      }
    }
  }

  @Override
  public void close() throws IOException {
    trickle.shutdownNow();
    synchronized (uploads) {
      for (Upload upload : uploads) {
        upload.socket.close();
      }
    }
  }
}
