package io.skippr.connect.lake.convert;

import org.apache.kafka.connect.errors.DataException;

/**
 * A single record cannot be written to the lake. The task reports it to the errant-record reporter
 * (or fails with this message when errors are not tolerated); the rest of the batch goes on.
 */
public class RecordRejectedException extends DataException {
  private static final long serialVersionUID = 1L;

  public RecordRejectedException(String reason) {
    super(reason);
  }

  public RecordRejectedException(String reason, Throwable cause) {
    super(reason, cause);
  }
}
