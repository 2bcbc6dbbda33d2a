package io.skippr.connect.state.api;

/** A state store operation failed; the message says what and how to fix it, on one line. */
public class StateStoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StateStoreException(String message) {
    super(message);
  }

  public StateStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
