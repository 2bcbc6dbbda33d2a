package io.skippr.connect.cli.sync;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.StorageKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Where a run without Kafka keeps the records the lake rejected, as the dead letter queue does
 * under Connect: one JSON document per record under {@code
 * _skippr/sync/{pipeline}/rejected/{run}/}, with the reason, the record's place in the run and in
 * the source, and its key and value. It is written before the unit that passes the record is
 * committed, so a rejected record is never lost (after a crash it can be kept twice).
 */
final class SyncRejections {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final LakeStorage lake;
  private final String prefix;
  private final SyncRecords records;
  private final AtomicLong count = new AtomicLong();
  private final JsonConverter converter = new JsonConverter();

  SyncRejections(LakeStorage lake, String pipeline, SyncRecords records) {
    this.lake = lake;
    this.records = records;
    this.prefix =
        StorageKeys.join(
                LakeLayout.SYSTEM_DIR, "sync", pipeline, "rejected", UUID.randomUUID().toString())
            + "/";
    converter.configure(Map.of("schemas.enable", "false", "converter.type", "value"));
  }

  /** Where this run's rejected records go. */
  String location() {
    return lake.location() + "/" + prefix;
  }

  long count() {
    return count.get();
  }

  /**
   * Keeps the record and why it was rejected.
   *
   * @return the record's place, for the run's report
   */
  String keep(SinkRecord record, Throwable error) {
    long n = count.incrementAndGet();
    String position =
        record.originalTopic()
            + "/"
            + record.originalKafkaPartition()
            + "@"
            + record.originalKafkaOffset();
    ObjectNode doc = JSON.createObjectNode();
    doc.put("reason", String.valueOf(error.getMessage()));
    doc.put("topic", record.topic());
    doc.put("position", position);
    LogEntry.SourcePosition source =
        records.at(
            new TopicPartition(record.originalTopic(), record.originalKafkaPartition()),
            record.originalKafkaOffset());
    if (source != null) {
      doc.set("source_partition", JSON.valueToTree(source.partition()));
      doc.set("source_offset", JSON.valueToTree(source.offset()));
    }
    doc.set("key", tree(record.topic(), record.keySchema(), record.key()));
    doc.set("value", tree(record.topic(), record.valueSchema(), record.value()));
    try {
      lake.createIfAbsent(prefix + String.format("%020d.json", n), JSON.writeValueAsBytes(doc));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep a rejected record in " + location(), e);
    }
    return position;
  }

  private JsonNode tree(String topic, Schema schema, Object value) {
    if (value == null) {
      return JSON.nullNode();
    }
    try {
      return JSON.readTree(converter.fromConnectData(topic, schema, value));
    } catch (IOException | RuntimeException e) {
      return JSON.getNodeFactory().textNode(String.valueOf(value));
    }
  }
}
