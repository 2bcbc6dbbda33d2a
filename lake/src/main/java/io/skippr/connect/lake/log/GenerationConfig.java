package io.skippr.connect.lake.log;

import java.util.Locale;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;

/** What the sink does with offsets its lake cannot account for. */
public final class GenerationConfig {
  public static final String GROUP = "Offsets";

  public static final String BEHAVIOR_ON_OFFSET_DISCONTINUITY = "behavior.on.offset.discontinuity";
  private static final String BEHAVIOR_DOC =
      "What to do when the offsets Kafka has for a topic partition do not continue where the"
          + " lake's log resumes it: the topic was deleted and recreated or truncated (Kafka"
          + " delivers offsets below the lake's committed end), records expired from Kafka before"
          + " they landed (the first record Kafka still holds lies past where the lake resumes),"
          + " or the connector's offsets were changed through the REST API (PATCH or DELETE"
          + " /connectors/{name}/offsets). 'fail': the task fails, or the REST call is refused,"
          + " with a message naming the partition and the offsets, and nothing is written."
          + " 'new_generation': the lake starts a new generation of the partition at the offset"
          + " Kafka delivers (or the REST call sets) and lands the records from there; units of"
          + " generation n are named {topic}+{partition}+g{n}+{start}+{end}, so they never collide"
          + " with older files, which stay in the lake.";

  /** The behaviours. */
  public enum Behavior {
    FAIL,
    NEW_GENERATION;

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private GenerationConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
        BEHAVIOR_ON_OFFSET_DISCONTINUITY,
        ConfigDef.Type.STRING,
        Behavior.FAIL.toString(),
        ConfigDef.CaseInsensitiveValidString.in("fail", "new_generation"),
        ConfigDef.Importance.MEDIUM,
        BEHAVIOR_DOC,
        GROUP,
        0,
        ConfigDef.Width.SHORT,
        "On offset discontinuity");
  }

  public static Behavior behavior(AbstractConfig config) {
    return Behavior.valueOf(
        config.getString(BEHAVIOR_ON_OFFSET_DISCONTINUITY).toUpperCase(Locale.ROOT));
  }

  /** How to proceed, for a message about a discontinuity under {@code fail}. */
  public static String howToProceed() {
    return "To land the records Kafka has as a new generation of the partition (older files stay"
        + " in the lake), set "
        + BEHAVIOR_ON_OFFSET_DISCONTINUITY
        + "=new_generation and restart the task. To land the partition from scratch instead,"
        + " stop the connector, delete the partition's files and its log under _skippr/log/ in"
        + " the lake, and reset the connector's offsets (DELETE /connectors/{name}/offsets).";
  }
}
