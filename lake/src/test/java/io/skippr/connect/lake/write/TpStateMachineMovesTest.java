package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.log.LakeIdentity;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.metrics.LakeSinkMetrics;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import io.skippr.connect.lake.write.OffsetCheck.Action;
import io.skippr.connect.lake.write.OffsetCheck.Step;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every move the diagram of {@link TpStateMachine} allows, each made by the event that makes it,
 * and every other move refused. The lake expects offset 10 of a TP it knows; a TP new to the lake
 * is first delivered offset 7.
 */
class TpStateMachineMovesTest {
  private static final TopicPartition TP = new TopicPartition("rt", 0);
  private static final long EXPECTED = 10;

  /** The diagram, written out: the phases each phase may move to. */
  private static final Map<TpPhase, Set<TpPhase>> ALLOWED =
      Map.of(
          TpPhase.NEW,
              EnumSet.of(TpPhase.LIVE, TpPhase.PROBING_NEW, TpPhase.CLOSING, TpPhase.FENCED),
          TpPhase.EXPECTING,
              EnumSet.of(TpPhase.LIVE, TpPhase.SOUGHT, TpPhase.CLOSING, TpPhase.FENCED),
          TpPhase.SOUGHT,
              EnumSet.of(TpPhase.LIVE, TpPhase.PROBING, TpPhase.CLOSING, TpPhase.FENCED),
          TpPhase.PROBING,
              EnumSet.of(TpPhase.LIVE, TpPhase.SETTLING, TpPhase.CLOSING, TpPhase.FENCED),
          TpPhase.PROBING_NEW,
              EnumSet.of(TpPhase.LIVE, TpPhase.SETTLING, TpPhase.CLOSING, TpPhase.FENCED),
          TpPhase.SETTLING, EnumSet.of(TpPhase.LIVE, TpPhase.CLOSING, TpPhase.FENCED),
          TpPhase.LIVE, EnumSet.of(TpPhase.SOUGHT, TpPhase.CLOSING, TpPhase.FENCED),
          TpPhase.CLOSING, EnumSet.of(TpPhase.FENCED),
          TpPhase.FENCED, EnumSet.of(TpPhase.FENCED));

  @TempDir Path lake;

  private TpLog log;

  /** A TP in {@code phase}, reached by the events that lead there. */
  private TpStateMachine reach(TpPhase phase) {
    TpStateMachine tp =
        phase == TpPhase.NEW || phase == TpPhase.PROBING_NEW
            ? machine(OptionalLong.empty())
            : machine(OptionalLong.of(EXPECTED));
    switch (phase) {
      case NEW, EXPECTING -> {}
      case PROBING_NEW -> deliver(tp, 7);
      case SOUGHT -> deliver(tp, 13);
      case PROBING -> deliver(reach(tp, TpPhase.SOUGHT), 13);
      case SETTLING -> deliver(reach(tp, TpPhase.PROBING), 2);
      case LIVE -> deliver(tp, EXPECTED);
      case CLOSING -> reach(tp, TpPhase.LIVE).closing();
      case FENCED -> reach(tp, TpPhase.LIVE).fenced();
      default -> throw new IllegalArgumentException(phase.toString());
    }
    assertThat(tp.phase()).isEqualTo(phase);
    return tp;
  }

  /** Moves {@code tp} (expecting {@link #EXPECTED}) on to {@code phase}. */
  private static TpStateMachine reach(TpStateMachine tp, TpPhase phase) {
    switch (phase) {
      case SOUGHT -> deliver(tp, 13);
      case PROBING -> {
        deliver(tp, 13);
        deliver(tp, 13);
      }
      case LIVE -> deliver(tp, EXPECTED);
      default -> throw new IllegalArgumentException(phase.toString());
    }
    return tp;
  }

  private TpStateMachine machine(OptionalLong expected) {
    return new TpStateMachine(TP, log, null, expected, new LakeSinkMetrics.Tp());
  }

  private static Step deliver(TpStateMachine tp, long offset) {
    Step step = tp.check(offset);
    tp.batchEnded();
    return step;
  }

  private void assertMove(TpPhase from, long delivered, TpPhase to) {
    TpStateMachine tp = reach(from);
    deliver(tp, delivered);
    assertThat(tp.phase()).as("%s, then offset %d", from, delivered).isEqualTo(to);
  }

  @Test
  void deliveredOffsetsMakeEveryMoveBetweenOpenPhases() {
    assertMove(TpPhase.NEW, 0, TpPhase.LIVE);
    assertMove(TpPhase.NEW, 7, TpPhase.PROBING_NEW);
    assertMove(TpPhase.PROBING_NEW, 7, TpPhase.LIVE); // the first record Kafka holds
    assertMove(TpPhase.PROBING_NEW, 2, TpPhase.SETTLING); // Kafka holds 2..6
    assertMove(TpPhase.EXPECTING, EXPECTED, TpPhase.LIVE);
    assertMove(TpPhase.EXPECTING, 13, TpPhase.SOUGHT);
    assertMove(TpPhase.SOUGHT, EXPECTED, TpPhase.LIVE);
    assertMove(TpPhase.SOUGHT, 13, TpPhase.PROBING);
    assertMove(TpPhase.PROBING, EXPECTED, TpPhase.LIVE);
    assertMove(TpPhase.PROBING, 2, TpPhase.SETTLING);
    assertMove(TpPhase.SETTLING, 13, TpPhase.LIVE); // 10..12 hold no data
    assertMove(TpPhase.LIVE, EXPECTED, TpPhase.SOUGHT); // the consumer went back
  }

  @Test
  void aDiscontinuityStartsAGenerationThatGoesOnLive() throws IOException {
    Map<TpPhase, Long> gaps =
        Map.of(TpPhase.SOUGHT, 3L, TpPhase.PROBING, 40L, TpPhase.SETTLING, 4L);
    for (Map.Entry<TpPhase, Long> gap : gaps.entrySet()) {
      openLog();
      TpStateMachine tp = reach(gap.getKey());
      Step step = deliver(tp, gap.getValue());
      assertThat(step.action()).as("%s", gap.getKey()).isEqualTo(Action.DISCONTINUITY);
      assertThat(tp.phase()).as("the task fails here unless").isEqualTo(gap.getKey());

      assertThat(tp.startGeneration(step.discontinuity())).isEqualTo(1);
      assertThat(tp.phase()).isEqualTo(TpPhase.LIVE);
      assertThat(log.state().generation()).isEqualTo(1);
      assertThat(deliver(tp, gap.getValue() + 1).action()).isEqualTo(Action.ACCEPT);
    }
  }

  @Test
  void everyOpenPhaseClosesAndEveryPhaseIsFenced() {
    for (TpPhase from : TpPhase.values()) {
      if (from != TpPhase.CLOSING && from != TpPhase.FENCED) {
        TpStateMachine tp = reach(from);
        tp.closing();
        assertThat(tp.phase()).isEqualTo(TpPhase.CLOSING);
        assertThat(tp.isOpen()).isFalse();
      }
      TpStateMachine fenced = reach(from);
      fenced.fenced();
      assertThat(fenced.phase()).isEqualTo(TpPhase.FENCED);
    }
  }

  @Test
  void everyMoveTheDiagramLacksIsRefused() {
    int refused = 0;
    for (TpPhase from : TpPhase.values()) {
      for (TpPhase to : TpPhase.values()) {
        TpStateMachine tp = reach(from);
        if (ALLOWED.get(from).contains(to)) {
          tp.move(to);
          assertThat(tp.phase()).isEqualTo(to);
        } else {
          assertThatThrownBy(() -> tp.move(to))
              .as("%s to %s", from, to)
              .isInstanceOf(IllegalStateException.class)
              .hasMessageContaining("from " + from + " to " + to);
          assertThat(tp.phase()).isEqualTo(from);
          refused++;
        }
      }
    }
    assertThat(refused).as("81 pairs, 28 moves").isEqualTo(81 - 28);
  }

  @Test
  void aClosedTpTakesNoMoreRecordsAndAFencedOneNeverCloses() {
    TpStateMachine closed = reach(TpPhase.CLOSING);
    assertThat(closed.check(11).action()).isEqualTo(Action.SKIP);
    TpStateMachine fenced = reach(TpPhase.FENCED);
    assertThatThrownBy(fenced::closing).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aReplayIsHeldOnceUntilHandedOver() {
    LogEntry.Intent intent =
        new LogEntry.Intent("rt+0+10+19", 10, 19, 1, 0, "fp", List.of("t/partition=0/f.parquet"));
    TpStateMachine tp =
        new TpStateMachine(TP, null, intent, OptionalLong.of(10), new LakeSinkMetrics.Tp());
    assertThat(tp.replay()).isSameAs(intent);
    assertThat(tp.buffering()).as("triggers wait for the replay").isFalse();
    deliver(tp, 10);
    assertThat(tp.phase()).isEqualTo(TpPhase.LIVE);
    assertThat(tp.replay()).isSameAs(intent);
    assertThat(tp.replayed()).isSameAs(intent);
    assertThat(tp.replay()).isNull();
    assertThat(tp.buffering()).isTrue();
    tp.closing();
    assertThat(tp.replay()).isNull();
  }

  private void openLog() throws IOException {
    LocalLakeStorage storage = new LocalLakeStorage(lake.resolve("lake-" + System.nanoTime()));
    LakeLayout layout = new LakeLayout();
    LakeIdentity identity = LakeIdentity.establishForWriter(storage, layout, 1);
    log = TpLog.read(storage, layout, TP.topic(), TP.partition());
    log.claimEpoch(identity, "test", 1);
  }
}
