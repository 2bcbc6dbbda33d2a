package io.skippr.connect.cli.audit;

import io.skippr.connect.common.Messages;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Fetches at an offset with a read_committed consumer of no group (it commits nothing): the
 * consumer skips transaction markers and aborted records, and its position moves past them, so a
 * range that holds only those ends with no record returned.
 */
final class KafkaProbe implements RecordProbe, AutoCloseable {
  private static final Duration POLL = Duration.ofMillis(200);

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Duration timeout;

  KafkaProbe(Map<String, Object> clientProps, Duration timeout) {
    Map<String, Object> props = new HashMap<>(clientProps);
    props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "skippr-audit-probe");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
    props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
    props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
    props.remove(ConsumerConfig.GROUP_ID_CONFIG);
    this.consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    this.timeout = timeout;
  }

  @Override
  public Result firstRecord(TopicPartition tp, long from, long to) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      consumer.assign(List.of(tp));
      consumer.seek(tp, from);
      while (System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL).records(tp)) {
          return record.offset() <= to ? Result.found(record.offset()) : Result.none();
        }
        if (consumer.position(tp, timeout) > to) {
          return Result.none();
        }
      }
      return Result.unknown(
          "reading from offset "
              + from
              + " gave no answer within "
              + timeout.toSeconds()
              + " s (it stopped at "
              + consumer.position(tp, timeout)
              + ")");
    } catch (KafkaException e) {
      return Result.unknown("reading from offset " + from + " failed: " + Messages.oneLine(e));
    }
  }

  @Override
  public void close() {
    consumer.close();
  }
}
