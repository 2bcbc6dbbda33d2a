package io.skippr.connect.lake.write;

import io.skippr.connect.lake.convert.RecordRejectedException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Where a rejected record goes: the errant-record reporter, or a task failure naming it. */
final class ErrantRecords {
  private static final Logger LOG = LoggerFactory.getLogger(ErrantRecords.class);

  private final ErrantRecordReporter reporter;
  private final boolean tolerated;

  /**
   * @param reporter the worker's reporter, or null when it has none
   * @param tolerated whether {@code errors.tolerance=all}
   */
  ErrantRecords(ErrantRecordReporter reporter, boolean tolerated) {
    this.reporter = reporter;
    this.tolerated = tolerated;
  }

  /**
   * Reports one rejected record; the batch goes on.
   *
   * @throws ConnectException naming the record's position and the reason when errors are not
   *     tolerated
   */
  void reject(SinkRecord record, RecordRejectedException reason) {
    String position = position(record);
    if (!tolerated || reporter == null) {
      throw new ConnectException(
          "Rejected record at " + position + ": " + reason.getMessage(), reason);
    }
    LOG.debug("Reporting rejected record at {}: {}", position, reason.getMessage());
    reporter.report(record, reason);
  }

  static String position(SinkRecord record) {
    return "topic "
        + record.originalTopic()
        + " partition "
        + record.originalKafkaPartition()
        + " offset "
        + record.originalKafkaOffset();
  }
}
