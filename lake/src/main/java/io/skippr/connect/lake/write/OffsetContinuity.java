package io.skippr.connect.lake.write;

import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether the offsets Kafka delivers for one TP continue where the lake expects them to.
 *
 * <p>After the task seeks a TP, the consumer delivers from that offset on, unless the offset is out
 * of Kafka's range and the consumer resets to the topic's earliest record (Connect's sink consumers
 * reset to {@code earliest}). So a record below the sought offset means the topic was recreated or
 * truncated, and a first record above it means either offsets that hold no data (transaction
 * markers, aborted or compacted records) or records that expired from Kafka before the lake had
 * them. To tell the last two apart the TP is probed once: sought to offset 0, where the consumer
 * delivers the first record Kafka still holds. If that record lies below the expected offset, Kafka
 * still holds the range and the gap is only offsets without data; if not, the records in between
 * are gone.
 *
 * <p>Every check asks at most for one seek; the records of the same batch after a seek was asked
 * for are skipped (they were fetched from the old position), until {@link #batchEnded}.
 */
final class OffsetContinuity {
  private final TopicPartition tp;
  private Phase phase;

  /** The offset the phase is about: expected next, or (probing) the first delivered one. */
  private long expected;

  /** The first offset delivered above {@link #expected}, while probing. */
  private long above;

  /** The highest offset accepted, -1 before the first. */
  private long highest = -1;

  /** A seek was asked for in the current batch: its other records of this TP are stale. */
  private boolean awaitingSeek;

  private enum Phase {
    /** The lake has no record of the TP: the consumer's position decides. */
    NEW,
    /** The lake expects {@link #expected} next; the consumer was sought there at open. */
    EXPECTING,
    /** The task sought {@link #expected} itself, after the first record did not match. */
    SOUGHT,
    /** The task sought offset 0 to learn the first record Kafka holds. */
    PROBING,
    /** A probe of a new TP: was there data below where the consumer started? */
    PROBING_NEW,
    /** Kafka holds the range below a gap; the gap after {@link #expected} is accepted. */
    SETTLING,
    /** Records arrive in order; gaps are offsets without data. */
    TRACKING
  }

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

  /**
   * @param expected where the lake resumes the TP; empty when the lake has no record of it
   */
  OffsetContinuity(TopicPartition tp, OptionalLong expected) {
    this.tp = tp;
    if (expected.isPresent()) {
      this.phase = Phase.EXPECTING;
      this.expected = expected.getAsLong();
      this.highest = this.expected - 1;
    } else {
      this.phase = Phase.NEW;
    }
  }

  /** Checks one delivered offset; offsets of one TP are checked in delivery order. */
  Step check(long offset) {
    if (awaitingSeek) {
      return Step.SKIPPED;
    }
    return switch (phase) {
      case NEW -> offset == 0 ? accept(offset) : probe(Phase.PROBING_NEW, offset);
      case EXPECTING -> offset == expected ? accept(offset) : seek(Phase.SOUGHT, expected);
      case SOUGHT -> afterSeek(offset);
      case PROBING -> probed(offset);
      case PROBING_NEW -> probedNew(offset);
      case SETTLING -> offset >= expected ? accept(offset) : discontinuity(true, offset);
      case TRACKING -> offset > highest ? accept(offset) : seekAgain(highest + 1);
    };
  }

  /** The batch ended: a seek asked for takes effect before the next one. */
  void batchEnded() {
    awaitingSeek = false;
  }

  /** Continues the TP at a discontinuity's delivered offset, as a new generation does. */
  void restartAt(long offset) {
    phase = Phase.TRACKING;
    highest = offset;
  }

  /** The highest offset accepted, or the one before the expected start; -1 when none. */
  long highest() {
    return highest;
  }

  /** The consumer went back without being asked to: seek on, and see where it lands. */
  private Step seekAgain(long next) {
    expected = next;
    return seek(Phase.SOUGHT, next);
  }

  private Step afterSeek(long offset) {
    if (offset == expected) {
      return accept(offset);
    }
    return offset < expected ? discontinuity(true, offset) : probe(Phase.PROBING, offset);
  }

  /** The first record Kafka holds, compared with where the lake expects the TP. */
  private Step probed(long first) {
    if (first < expected) {
      return seek(Phase.SETTLING, expected); // Kafka holds the range: the gap holds no data
    }
    return first == expected ? accept(first) : discontinuity(false, first);
  }

  /** The first record Kafka holds, compared with where a TP new to the lake started. */
  private Step probedNew(long first) {
    if (first < above) {
      expected = above;
      String notice =
          tp
              + " is new to this lake and starts at offset "
              + above
              + ", where its consumer group stands; offsets "
              + first
              + ".."
              + (above - 1)
              + " are still in Kafka but are not in this lake (reset the connector's offsets to"
              + " land them)";
      Step seek = seek(Phase.SETTLING, above);
      return new Step(seek.action(), seek.seekTo(), null, notice);
    }
    accept(first);
    return new Step(
        Action.ACCEPT,
        -1,
        null,
        tp
            + " is new to this lake and starts at offset "
            + first
            + ", the first record Kafka still holds: older offsets expired or were compacted"
            + " away before this lake had them");
  }

  private Step accept(long offset) {
    phase = Phase.TRACKING;
    highest = offset;
    return Step.ACCEPTED;
  }

  /** Asks for a seek; the rest of the batch is stale. */
  private Step seek(Phase next, long offset) {
    phase = next;
    awaitingSeek = true;
    return Step.seek(offset);
  }

  /** Seeks offset 0, where the consumer delivers the first record Kafka still holds. */
  private Step probe(Phase next, long delivered) {
    above = delivered;
    return seek(next, 0);
  }

  private Step discontinuity(boolean below, long delivered) {
    return new Step(
        Action.DISCONTINUITY, -1, new Discontinuity(tp, below, expected, delivered), null);
  }
}
