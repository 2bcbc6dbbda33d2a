package io.skippr.connect.source.lineprotocol.records;

import io.skippr.connect.source.http.config.TopicNames;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The topic a measurement's points go to: {@code {prefix}{measurement}} with the characters a topic
 * name cannot hold replaced by '_', or one fixed topic for all. A name that is not a legal topic,
 * or that is the rejection topic, is unusable and its points are rejected.
 */
public final class MeasurementTopics {

  private final String prefix;
  private final String fixedTopic;
  private final String rejectionTopic;
  private final Map<String, String> topicByMeasurement = new ConcurrentHashMap<>();

  /**
   * @param prefix prepended to the measurement name
   * @param fixedTopic when non-empty, every point goes to this topic instead
   * @param rejectionTopic the topic no measurement may map to, or null when there is none
   */
  public MeasurementTopics(String prefix, String fixedTopic, String rejectionTopic) {
    this.prefix = prefix;
    this.fixedTopic = fixedTopic;
    this.rejectionTopic = rejectionTopic;
  }

  /** True when all points go to one topic (the measurement then travels in a header). */
  public boolean fixed() {
    return !fixedTopic.isEmpty();
  }

  /** The measurement's topic, or null when its name does not make a usable topic. */
  public String topicFor(String measurement) {
    if (fixed()) {
      return fixedTopic;
    }
    String topic =
        topicByMeasurement.computeIfAbsent(measurement, m -> prefix + TopicNames.sanitize(m));
    boolean usable = TopicNames.isLegal(topic) && !topic.equals(rejectionTopic);
    return usable ? topic : null;
  }
}
