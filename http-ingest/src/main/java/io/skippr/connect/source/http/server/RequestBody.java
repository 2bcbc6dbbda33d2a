package io.skippr.connect.source.http.server;

import io.skippr.connect.source.http.config.LimitsConfig;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * A request body with both byte limits applied while it streams: the encoded size (as sent) and,
 * for {@code Content-Encoding: gzip}, the decompressed size.
 */
public final class RequestBody {

  private final LimitedInputStream decoded;

  private RequestBody(LimitedInputStream decoded) {
    this.decoded = decoded;
  }

  /**
   * Opens the body.
   *
   * @throws RequestTooLarge when Content-Length already exceeds the encoded limit
   * @throws IllegalArgumentException for a Content-Encoding other than gzip or identity
   */
  public static RequestBody open(
      InputStream raw, String contentLength, String contentEncoding, LimitsConfig.Values limits)
      throws IOException {
    if (contentLength != null) {
      try {
        if (Long.parseLong(contentLength.trim()) > limits.requestMaxBytes()) {
          throw new RequestTooLarge(
              "request body larger than " + limits.requestMaxBytes() + " bytes");
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("invalid Content-Length");
      }
    }
    InputStream encoded = new LimitedInputStream(raw, limits.requestMaxBytes(), "request body");
    String encoding =
        contentEncoding == null ? "identity" : contentEncoding.trim().toLowerCase(Locale.ROOT);
    InputStream plain =
        switch (encoding) {
          case "gzip", "x-gzip" -> new StrictGzipInputStream(encoded, 64 * 1024);
          case "identity", "" -> encoded;
          default ->
              throw new IllegalArgumentException(
                  "unsupported Content-Encoding '" + contentEncoding + "' (use gzip or none)");
        };
    return new RequestBody(
        new LimitedInputStream(
            plain, limits.requestMaxDecompressedBytes(), "decompressed request body"));
  }

  /** Wraps an already decoded stream (tests and embedding). */
  public static RequestBody of(InputStream plain, long maxBytes) {
    return new RequestBody(new LimitedInputStream(plain, maxBytes, "request body"));
  }

  public InputStream stream() {
    return decoded;
  }

  /** Decompressed bytes read so far. */
  public long bytesRead() {
    return decoded.count();
  }

  /** Reads the rest of the body into memory (within the decompressed limit). */
  public byte[] readAll() throws IOException {
    return decoded.readAllBytes();
  }
}
