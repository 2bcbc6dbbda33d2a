package io.skippr.connect.cli.lake;

/** A lake, or the connector that names it, cannot be reached or read: told as one line. */
public final class LakeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public LakeException(String message) {
    super(message);
  }

  public LakeException(String message, Throwable cause) {
    super(message, cause);
  }
}
