package io.skippr.connect.cli.audit;

/** A problem the audit cannot get past, told to the user as one line. */
final class AuditException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  AuditException(String message) {
    super(message);
  }

  AuditException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The message of a throwable as one line: its own, else its first cause's that has one. */
  static String oneLine(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getMessage() == null) {
      root = root.getCause();
    }
    String message = root.getMessage() != null ? root.getMessage() : root.toString();
    return message.replaceAll("\\s+", " ").trim();
  }
}
