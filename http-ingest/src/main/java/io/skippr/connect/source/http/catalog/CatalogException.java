package io.skippr.connect.source.http.catalog;

/**
 * The catalog's storage failed: the request is answered 503 (nothing of it accepted) and the client
 * retries; this is never a reason to reject a row.
 */
public final class CatalogException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CatalogException(String message, Throwable cause) {
    super(message, cause);
  }
}
