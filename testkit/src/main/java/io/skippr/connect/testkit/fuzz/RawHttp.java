package io.skippr.connect.testkit.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Sends an {@link IngestRequests.Request} as written, on a socket of its own: the request target
 * goes out byte for byte (an HTTP client library refuses malformed percent escapes), with {@code
 * Connection: close}, and the answer is read to the end.
 */
public final class RawHttp {

  /** A status and its body. */
  public record Answer(int status, String body) {}

  private RawHttp() {}

  public static Answer exchange(String host, int port, IngestRequests.Request request)
      throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 10_000);
      socket.setSoTimeout(120_000);
      StringBuilder head = new StringBuilder();
      head.append(request.method()).append(' ').append(request.target()).append(" HTTP/1.1\r\n");
      head.append("Host: ").append(host).append("\r\nConnection: close\r\n");
      head.append("Content-Length: ").append(request.body().length).append("\r\n");
      for (int i = 0; i < request.headers().size(); i += 2) {
        head.append(request.headers().get(i)).append(": ");
        head.append(request.headers().get(i + 1).strip()).append("\r\n");
      }
      OutputStream out = socket.getOutputStream();
      out.write(head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
      out.write(request.body());
      out.flush();
      return parse(socket.getInputStream().readAllBytes());
    }
  }

  private static Answer parse(byte[] raw) throws IOException {
    String text = new String(raw, StandardCharsets.UTF_8);
    int end = text.indexOf("\r\n\r\n");
    if (!text.startsWith("HTTP/1.1 ") || end < 0) {
      throw new IOException("not an HTTP answer: " + text);
    }
    int status = Integer.parseInt(text.substring(9, 12));
    String body = text.substring(end + 4);
    boolean chunked =
        text.substring(0, end).toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked");
    return new Answer(status, chunked ? dechunk(body) : body);
  }

  private static String dechunk(String body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int at = 0;
    while (true) {
      int line = body.indexOf("\r\n", at);
      int size = Integer.parseInt(body.substring(at, line).strip(), 16);
      if (size == 0) {
        return out.toString(StandardCharsets.UTF_8);
      }
      byte[] chunk = body.substring(line + 2, line + 2 + size).getBytes(StandardCharsets.UTF_8);
      out.write(chunk, 0, chunk.length);
      at = line + 2 + size + 2;
    }
  }
}
