package io.skippr.connect.source.lineprotocol.records;

import io.skippr.connect.source.common.TopicNames;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The topic a measurement's points go to: {@code {prefix}{name}} with the name mapped by {@link
 * TopicNames#forName} (injective: two measurements never share a topic), or one fixed topic for
 * all. A name whose topic would be too long, or would collide with the rejection topic, is unusable
 * and its points are rejected; a {@link TopicGate} may refuse more (limits, allowed names).
 */
public final class MeasurementTopics {

  /** A measurement's topic, or why it has none (exactly one is set). */
  public record Resolved(String topic, String rejection) {}

  private final String prefix;
  private final String fixedTopic;
  private final String rejectionTopic;
  private final TopicGate gate;
  private final Map<String, String> topicByMeasurement = new ConcurrentHashMap<>();

  /**
   * @param prefix prepended to the mapped measurement name
   * @param fixedTopic when non-empty, every point goes to this topic instead
   * @param rejectionTopic the topic no measurement may map to, or null when there is none
   */
  public MeasurementTopics(String prefix, String fixedTopic, String rejectionTopic) {
    this(prefix, fixedTopic, rejectionTopic, TopicGate.OPEN);
  }

  /**
   * @param gate asked once per measurement topic (its answer for a given name may change only from
   *     refused to admitted as limits are raised, so admitted names are not asked again)
   */
  public MeasurementTopics(
      String prefix, String fixedTopic, String rejectionTopic, TopicGate gate) {
    this.prefix = prefix;
    this.fixedTopic = fixedTopic;
    this.rejectionTopic = rejectionTopic;
    this.gate = gate;
  }

  /** True when all points go to one topic (the measurement then travels in a header). */
  public boolean fixed() {
    return !fixedTopic.isEmpty();
  }

  /** The measurement's topic, or null when it has none (see {@link #resolve} for the reason). */
  public String topicFor(String measurement) {
    return resolve(measurement).topic();
  }

  /** The measurement's topic, or the reason it cannot have one. */
  public Resolved resolve(String measurement) {
    if (fixed()) {
      return new Resolved(fixedTopic, null);
    }
    String known = topicByMeasurement.get(measurement);
    if (known != null) {
      return new Resolved(known, null);
    }
    String topic = prefix + TopicNames.forName(measurement);
    String problem = problem(measurement, topic);
    if (problem == null) {
      problem = gate.admit(measurement, topic);
    }
    if (problem != null) {
      return new Resolved(null, problem);
    }
    topicByMeasurement.put(measurement, topic);
    return new Resolved(topic, null);
  }

  private String problem(String measurement, String topic) {
    if (!TopicNames.isLegal(topic)) {
      return "measurement '"
          + measurement
          + "' does not map to a usable topic name: '"
          + (topic.length() > 64 ? topic.substring(0, 64) + "…" : topic)
          + "' is "
          + topic.length()
          + " characters long, a topic name has at most "
          + TopicNames.MAX_LENGTH;
    }
    if (rejectionTopic != null
        && TopicNames.collisionForm(topic).equals(TopicNames.collisionForm(rejectionTopic))) {
      return "measurement '"
          + measurement
          + "' does not map to a usable topic name: '"
          + topic
          + "' is (or collides with) the rejection topic";
    }
    return null;
  }
}
