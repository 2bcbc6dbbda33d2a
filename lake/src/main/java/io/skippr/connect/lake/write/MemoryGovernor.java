package io.skippr.connect.lake.write;

import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.buffer.UnitBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code buffer.max.bytes}, the task's memory budget, in one place: a unit's bytes count from the
 * row that joins it until the unit is committed or dropped ({@link #release}, once per unit). Over
 * the budget it first compacts the rows open units hold as objects into bytes ({@link #compact}),
 * so files are no smaller than memory forces; then it names the TP whose unit to cut, and pauses
 * consumption while nothing can be cut.
 */
final class MemoryGovernor {
  private static final Logger LOG = LoggerFactory.getLogger(MemoryGovernor.class);

  /** The share of the budget rows held as objects must reach before they are compacted. */
  static final double COMPACT_SHARE = 0.25;

  private final long maxBytes;
  private final SinkTaskContext context;
  // Written by the task's thread only; volatile so that metric reporters read them whole.
  private volatile long bytes;
  private long peakBytes;
  private volatile long pauses;
  private volatile long compactions;

  MemoryGovernor(long maxBytes, SinkTaskContext context) {
    this.maxBytes = maxBytes;
    this.context = context;
  }

  /** A row of {@code delta} estimated bytes joined a unit. */
  void hold(long delta) {
    bytes += delta;
    peakBytes = Math.max(peakBytes, bytes);
  }

  /** A unit was committed or dropped: its bytes are free (the first call only). */
  void release(UnitBuffer unit) {
    if (unit.release()) {
      bytes -= unit.bytes();
    }
  }

  boolean isOver() {
    return bytes > maxBytes;
  }

  /**
   * Over the budget: turns the rows the open units hold as objects into compact bytes, a third to a
   * quarter of their estimate for typical rows, when at least {@link #COMPACT_SHARE} of the budget
   * is held so (less would free too little to be worth a pass). Every row is compacted at most
   * once.
   *
   * @return true when it freed bytes
   */
  boolean compact(Collection<TpStateMachine> tpStates) {
    long objects = 0;
    for (TpStateMachine tpState : tpStates) {
      if (tpState.isOpen()) {
        objects += tpState.unit().objectBytes();
      }
    }
    if (objects < maxBytes * COMPACT_SHARE) {
      return false;
    }
    long freed = 0;
    for (TpStateMachine tpState : tpStates) {
      if (tpState.isOpen()) {
        freed += tpState.unit().compact();
      }
    }
    bytes -= freed;
    compactions++;
    return freed > 0;
  }

  /** The live tpState with the most bytes buffered, whose unit to cut; null when none has any. */
  TpStateMachine largest(Collection<TpStateMachine> tpStates) {
    TpStateMachine largest = null;
    for (TpStateMachine tpState : tpStates) {
      if (tpState.rotatable()
          && tpState.unit().bytes() > 0
          && (largest == null || tpState.unit().bytes() > largest.unit().bytes())) {
        largest = tpState;
      }
    }
    return largest;
  }

  /** Nothing can be cut (only replays hold bytes): stop consuming the open TPs until under. */
  void pause(Collection<TpStateMachine> tpStates) {
    List<TopicPartition> pause = new ArrayList<>();
    for (TpStateMachine tpState : tpStates) {
      if (tpState.buffering() && !tpState.paused()) {
        tpState.paused(true);
        pause.add(tpState.tp);
      }
    }
    if (!pause.isEmpty()) {
      pauses++;
      LOG.info(
          "Buffered {} bytes, over {}={} with only replayed units left; pausing {}",
          bytes,
          RotationConfig.BUFFER_MAX_BYTES,
          maxBytes,
          pause);
      context.pause(pause.toArray(new TopicPartition[0]));
    }
  }

  /** Resumes the TPs paused for memory once under the budget again (a closed TP is gone). */
  void resumeWhenUnder(Collection<TpStateMachine> tpStates) {
    if (isOver()) {
      return;
    }
    List<TopicPartition> resume = new ArrayList<>();
    for (TpStateMachine tpState : tpStates) {
      if (tpState.paused()) {
        tpState.paused(false);
        resume.add(tpState.tp);
      }
    }
    if (!resume.isEmpty()) {
      LOG.info("Buffer back under {}; resuming {}", RotationConfig.BUFFER_MAX_BYTES, resume);
      context.resume(resume.toArray(new TopicPartition[0]));
    }
  }

  long bytes() {
    return bytes;
  }

  long peakBytes() {
    return peakBytes;
  }

  long maxBytes() {
    return maxBytes;
  }

  /** How often consumption was paused for memory. */
  long pauses() {
    return pauses;
  }

  /** How often buffered rows were compacted to stay within the budget. */
  long compactions() {
    return compactions;
  }
}
