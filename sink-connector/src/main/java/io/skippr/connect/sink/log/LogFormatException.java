package io.skippr.connect.sink.log;

import org.apache.kafka.connect.errors.ConnectException;

/** A TP log holds an entry this version cannot read; the TP is refused before anything changes. */
public class LogFormatException extends ConnectException {
  private static final long serialVersionUID = 1L;

  public LogFormatException(String message) {
    super(message);
  }

  public LogFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
