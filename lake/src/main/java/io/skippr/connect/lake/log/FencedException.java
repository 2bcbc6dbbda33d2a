package io.skippr.connect.lake.log;

import org.apache.kafka.connect.errors.ConnectException;

/** A newer writer claimed the TP: this writer must stop writing it and drop what it buffered. */
public class FencedException extends ConnectException {
  private static final long serialVersionUID = 1L;

  private final String topic;
  private final int partition;

  public FencedException(String topic, int partition, String message) {
    super(message);
    this.topic = topic;
    this.partition = partition;
  }

  public String topic() {
    return topic;
  }

  public int partition() {
    return partition;
  }
}
