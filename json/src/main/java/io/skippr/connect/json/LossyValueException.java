package io.skippr.connect.json;

import org.apache.kafka.connect.errors.DataException;

/**
 * A JSON value that Kafka's converter would read as a value other than the one written, refused. It
 * carries a stand-in of the type Kafka would have produced, so the record can be read once more the
 * lenient way, as Kafka reads it, to find whether Kafka's converter fails on it for another reason:
 * then that error is the one reported.
 */
final class LossyValueException extends DataException {
  private static final long serialVersionUID = 1L;

  @SuppressWarnings("serial")
  private final transient Object standIn;

  LossyValueException(String message, Object standIn) {
    super(message);
    this.standIn = standIn;
  }

  /** A value of the class Kafka's converter reads here (not necessarily its value). */
  Object standIn() {
    return standIn;
  }
}
