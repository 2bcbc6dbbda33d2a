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
}
