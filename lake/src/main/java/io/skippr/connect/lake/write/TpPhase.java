package io.skippr.connect.lake.write;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Where a TP stands in its {@link TpStateMachine}, and the moves its diagram allows from each
 * phase.
 */
enum TpPhase {
  /** The lake has no record of the TP: the consumer's position decides. */
  NEW,
  /** The lake expects a known offset next; the consumer was sought there at open. */
  EXPECTING,
  /** The task sought the expected offset itself, after a record did not match. */
  SOUGHT,
  /** The task sought offset 0 to learn the first record Kafka holds. */
  PROBING,
  /** A probe of a new TP: was there data below where the consumer started? */
  PROBING_NEW,
  /** Kafka holds the range below a gap; the gap after the expected offset is accepted. */
  SETTLING,
  /** Records continue the TP and are buffered; gaps are offsets without data. */
  LIVE,
  /** Being closed: nothing more joins; a failure of its unit in flight is its next owner's. */
  CLOSING,
  /** A newer writer claimed the TP: nothing more is written. */
  FENCED;

  private static final Map<TpPhase, Set<TpPhase>> MOVES = new EnumMap<>(TpPhase.class);

  static {
    MOVES.put(NEW, EnumSet.of(LIVE, PROBING_NEW));
    MOVES.put(EXPECTING, EnumSet.of(LIVE, SOUGHT));
    MOVES.put(SOUGHT, EnumSet.of(LIVE, PROBING));
    MOVES.put(PROBING, EnumSet.of(LIVE, SETTLING));
    MOVES.put(PROBING_NEW, EnumSet.of(LIVE, SETTLING));
    MOVES.put(SETTLING, EnumSet.of(LIVE));
    MOVES.put(LIVE, EnumSet.of(SOUGHT));
    MOVES.put(CLOSING, EnumSet.noneOf(TpPhase.class));
    MOVES.put(FENCED, EnumSet.noneOf(TpPhase.class));
    for (TpPhase phase : values()) {
      MOVES.get(phase).add(FENCED);
      if (phase.isOpen()) {
        MOVES.get(phase).add(CLOSING);
      }
    }
  }

  /** Whether records may still join: neither closing nor fenced. */
  boolean isOpen() {
    return this != CLOSING && this != FENCED;
  }

  /** Whether the diagram has a move from this phase to {@code to}. */
  boolean allows(TpPhase to) {
    return MOVES.get(this).contains(to);
  }
}
