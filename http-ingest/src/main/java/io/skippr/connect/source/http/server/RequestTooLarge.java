package io.skippr.connect.source.http.server;

import java.io.IOException;

/** A request over a request limit: answered with 413 and nothing of it accepted. */
public final class RequestTooLarge extends IOException {
  private static final long serialVersionUID = 1L;

  public RequestTooLarge(String message) {
    super(message);
  }
}
