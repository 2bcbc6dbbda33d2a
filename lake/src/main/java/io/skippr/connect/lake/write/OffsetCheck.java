package io.skippr.connect.lake.write;

import org.apache.kafka.common.TopicPartition;

/** What a {@link TpStateMachine} makes of one delivered offset. */
final class OffsetCheck {
  private OffsetCheck() {}

  /** What to do with a delivered record. */
  enum Action {
    /** Take the record: it continues the TP. */
    ACCEPT,
    /** Drop the record: it was fetched before a seek the task asked for. */
    SKIP,
    /** Drop the record and seek the TP to {@link Step#seekTo}. */
    SEEK,
    /** The lake cannot account for the offsets: see {@link Step#discontinuity}. */
    DISCONTINUITY
  }

  /**
   * The outcome of one check.
   *
   * @param seekTo the offset to seek to, for {@link Action#SEEK}
   * @param discontinuity what the lake cannot account for, for {@link Action#DISCONTINUITY}
   * @param notice something the log should say about a TP new to the lake, or null
   */
  record Step(Action action, long seekTo, Discontinuity discontinuity, String notice) {
    static final Step ACCEPTED = new Step(Action.ACCEPT, -1, null, null);
    static final Step SKIPPED = new Step(Action.SKIP, -1, null, null);

    static Step seek(long offset) {
      return new Step(Action.SEEK, offset, null, null);
    }
  }

  /**
   * Offsets of a TP that the lake cannot account for.
   *
   * @param below true when Kafka delivered offsets below where the lake resumes (the topic was
   *     recreated or truncated, or the consumer was moved back); false when records between the
   *     expected offset and the delivered one are no longer in Kafka
   * @param expected the offset the lake expected next
   * @param delivered the offset Kafka delivered instead
   */
  record Discontinuity(TopicPartition tp, boolean below, long expected, long delivered) {
    String describe() {
      if (below) {
        return tp
            + " delivered offset "
            + delivered
            + ", below offset "
            + expected
            + " where this lake resumes it: the topic was deleted and recreated or truncated,"
            + " or its consumer was moved back";
      }
      return "this lake resumes "
          + tp
          + " at offset "
          + expected
          + " but the first record Kafka still holds is at "
          + delivered
          + ": offsets "
          + expected
          + ".."
          + (delivered - 1)
          + " expired from Kafka (retention or deleted records) before they landed";
    }
  }

  /** A TP new to the lake started above records Kafka still holds. */
  static String skippedBelow(TopicPartition tp, long first, long start) {
    return tp
        + " is new to this lake and starts at offset "
        + start
        + ", where its consumer group stands; offsets "
        + first
        + ".."
        + (start - 1)
        + " are still in Kafka but are not in this lake (reset the connector's offsets to"
        + " land them)";
  }

  /** A TP new to the lake starts at the first record Kafka still holds, above offset 0. */
  static String startsAtFirstHeld(TopicPartition tp, long first) {
    return tp
        + " is new to this lake and starts at offset "
        + first
        + ", the first record Kafka still holds: older offsets expired or were compacted"
        + " away before this lake had them";
  }
}
