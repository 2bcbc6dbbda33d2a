package io.skippr.connect.source.http.convert;

import io.skippr.connect.source.common.TopicNames;
import io.skippr.connect.source.common.encoding.ValueEncoder;
import io.skippr.connect.source.http.catalog.NameKind;
import io.skippr.connect.source.http.catalog.StreamSchemas;
import io.skippr.connect.source.http.config.TopicConfig;
import io.skippr.connect.source.http.delivery.TrackedRecord;
import io.skippr.connect.source.http.delivery.WriteTicket;
import io.skippr.connect.source.lineprotocol.records.TopicGate;
import java.util.Map;

/**
 * Turns the items of a JSON stream into schemaless records: topic {@code
 * {json.topic.prefix}{stream}} (the name mapped like a measurement's) or the fixed topic, value =
 * the object as a map, Kafka timestamp = when the request arrived. An item whose fields do not fit
 * the stream's types ({@link StreamSchemas}) is rejected with the reason.
 */
public final class StreamRecords {

  /** A stream's topic, or why it has none (exactly one is set). */
  public record Topic(String topic, String rejection) {}

  private final TopicConfig.Values topics;
  private final TopicGate gate;
  private final StreamSchemas schemas;
  private final ValueEncoder encoder;

  public StreamRecords(
      TopicConfig.Values topics, TopicGate gate, StreamSchemas schemas, ValueEncoder encoder) {
    this.topics = topics;
    this.gate = gate;
    this.schemas = schemas;
    this.encoder = encoder;
  }

  /** The stream's topic, or the reason its items are all rejected. */
  public Topic topic(String stream) {
    if (stream.isEmpty() || stream.startsWith("_")) {
      return new Topic(null, "stream name must not be empty or start with '_'");
    }
    if (!topics.fixedTopic().isEmpty()) {
      return new Topic(topics.fixedTopic(), null);
    }
    String topic = topics.jsonPrefix() + TopicNames.forName(stream);
    if (!TopicNames.isLegal(topic)) {
      return new Topic(
          null,
          NameKind.STREAM.label()
              + " '"
              + stream
              + "' does not map to a usable topic name: it would be "
              + topic.length()
              + " characters long, a topic name has at most "
              + TopicNames.MAX_LENGTH);
    }
    if (TopicNames.collisionForm(topic).equals(TopicNames.collisionForm(topics.rejectionTopic()))) {
      return new Topic(
          null,
          "JSON stream '" + stream + "' would write to (or collide with) the rejection topic");
    }
    String refused = gate.admit(stream, topic);
    return refused == null ? new Topic(topic, null) : new Topic(null, refused);
  }

  /** The record for an item, or the reason it does not fit the stream. */
  public Converted convert(
      String topic,
      String stream,
      Map<String, Object> item,
      WriteTicket ticket,
      long receivedMillis) {
    String refused = schemas.admit(stream, item);
    if (refused != null) {
      return Converted.rejected(refused);
    }
    ValueEncoder.Encoded value = encoder.encode(topic, null, item);
    return Converted.of(
        new TrackedRecord(
            ticket, true, topic, null, value.schema(), value.value(), receivedMillis, null));
  }
}
