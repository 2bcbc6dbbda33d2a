package io.skippr.connect.source.poll.http;

import java.net.URI;
import java.net.http.HttpHeaders;

/** A received response: the URI it answered, status, headers and the (decompressed) body. */
public record Response(URI uri, int status, HttpHeaders headers, byte[] body) {

  public boolean ok() {
    return status >= 200 && status < 300;
  }
}
