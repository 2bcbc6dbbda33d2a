package io.skippr.connect.source.lineprotocol.records;

/** Decides whether a name may have its topic (limits, allowed names, collisions). */
@FunctionalInterface
public interface TopicGate {

  /**
   * @return null when the name may write to the topic, else the reason it may not
   */
  String admit(String name, String topic);

  /** Every legal topic is admitted. */
  TopicGate OPEN = (name, topic) -> null;
}
