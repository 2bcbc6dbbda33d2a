package io.skippr.connect.source.file.engine;

import java.io.IOException;

/** The name no longer holds the file that was listed: the next listing sorts it out. */
final class StaleFileException extends IOException {
  private static final long serialVersionUID = 1L;

  StaleFileException(String message) {
    super(message);
  }
}
