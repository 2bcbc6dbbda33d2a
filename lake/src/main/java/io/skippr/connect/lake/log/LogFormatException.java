package io.skippr.connect.lake.log;

import org.apache.kafka.connect.errors.ConnectException;

/**
 * A document of the lake's own (a TP log entry, the lake's identity, a table schema) that this
 * version cannot read or must not trust: a newer format, or damage (truncated, edited, copied from
 * another lake, inconsistent with the entries before it). What needs it is refused before anything
 * changes.
 */
public class LogFormatException extends ConnectException {
  private static final long serialVersionUID = 1L;

  private final boolean newerFormat;

  public LogFormatException(String message) {
    this(message, null, false);
  }

  /** Keeps whether the cause is a newer format. */
  public LogFormatException(String message, Throwable cause) {
    this(message, cause, cause instanceof LogFormatException e && e.newerFormat);
  }

  private LogFormatException(String message, Throwable cause, boolean newerFormat) {
    super(message, cause);
    this.newerFormat = newerFormat;
  }

  /**
   * A document of a format version newer than this connector reads: upgrade, nothing is damaged.
   */
  static LogFormatException newerFormat(String message) {
    return new LogFormatException(message, null, true);
  }

  /** True when the document is of a newer format (upgrade the connector), false for damage. */
  public boolean isNewerFormat() {
    return newerFormat;
  }
}
