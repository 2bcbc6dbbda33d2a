package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.metrics.LakeSinkMetrics;
import io.skippr.connect.lake.write.OffsetCheck.Action;
import io.skippr.connect.lake.write.OffsetCheck.Step;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * What a TP's delivered offsets say about where Kafka stands against the lake: the checks its
 * {@link TpStateMachine} makes before and while it is live. Its moves themselves: {@link
 * TpStateMachineMovesTest}.
 */
class TpStateMachineTest {
  private static final TopicPartition TP = new TopicPartition("rt", 0);

  private static TpStateMachine expecting(long offset) {
    return machine(OptionalLong.of(offset));
  }

  private static TpStateMachine machine(OptionalLong expected) {
    return new TpStateMachine(TP, null, null, expected, new LakeSinkMetrics.Tp());
  }

  /** Delivers one offset as the first record of a batch. */
  private static Step deliver(TpStateMachine continuity, long offset) {
    Step step = continuity.check(offset);
    continuity.batchEnded();
    return step;
  }

  private static void assertSeek(Step step, long offset) {
    assertThat(step.action()).isEqualTo(Action.SEEK);
    assertThat(step.seekTo()).isEqualTo(offset);
  }

  @Test
  void recordsThatContinueTheLakeAreAcceptedAndGapsWhileTrackingAreOffsetsWithoutData() {
    TpStateMachine c = expecting(100);
    assertThat(c.check(100).action()).isEqualTo(Action.ACCEPT);
    assertThat(c.check(101).action()).isEqualTo(Action.ACCEPT);
    assertThat(c.check(105).action())
        .as("a transaction marker in between")
        .isEqualTo(Action.ACCEPT);
    assertThat(c.highest()).isEqualTo(105);
  }

  @Test
  void aRecreatedTopicIsSeenBelowTheLakeEndTwiceThenReported() {
    TpStateMachine c = expecting(10_000);
    Step first = c.check(0);
    assertSeek(first, 10_000);
    assertThat(c.check(1).action()).as("the rest of the batch is stale").isEqualTo(Action.SKIP);
    c.batchEnded();

    Step again = deliver(c, 0);
    assertThat(again.action()).isEqualTo(Action.DISCONTINUITY);
    assertThat(again.discontinuity().below()).isTrue();
    assertThat(again.discontinuity().expected()).isEqualTo(10_000);
    assertThat(again.discontinuity().delivered()).isZero();
    assertThat(again.discontinuity().describe())
        .contains("rt-0", "offset 0", "offset 10000", "recreated");
    assertThat(c.phase()).isEqualTo(TpPhase.SOUGHT);
  }

  @Test
  void recordsBelowTheLakeEndFetchedBeforeTheSeekAreNotADiscontinuity() {
    TpStateMachine c = expecting(500);
    assertSeek(deliver(c, 480), 500);
    assertThat(deliver(c, 500).action()).isEqualTo(Action.ACCEPT);
  }

  @Test
  void aGapOverARangeKafkaStillHoldsIsOffsetsWithoutData() {
    TpStateMachine c = expecting(5);
    assertSeek(deliver(c, 6), 5); // stale, or a marker at 5?
    assertSeek(deliver(c, 6), 0); // still 6: probe where Kafka starts
    assertSeek(deliver(c, 0), 5); // Kafka holds 0..: offset 5 holds no data
    assertThat(deliver(c, 6).action()).isEqualTo(Action.ACCEPT);
    assertThat(c.highest()).isEqualTo(6);
  }

  @Test
  void recordsThatExpiredBeforeTheyLandedAreReported() {
    TpStateMachine c = expecting(1_000);
    assertSeek(deliver(c, 1_500), 1_000); // the consumer reset to the earliest record
    assertSeek(deliver(c, 1_500), 0);
    Step probed = deliver(c, 1_500);
    assertThat(probed.action()).isEqualTo(Action.DISCONTINUITY);
    assertThat(probed.discontinuity().below()).isFalse();
    assertThat(probed.discontinuity().expected()).isEqualTo(1_000);
    assertThat(probed.discontinuity().delivered()).isEqualTo(1_500);
    assertThat(probed.discontinuity().describe()).contains("1000..1499", "expired");
  }

  @Test
  void aStalePrefetchAboveIsResolvedByTheSeekBack() {
    TpStateMachine c = expecting(10);
    assertSeek(deliver(c, 14), 10);
    assertThat(deliver(c, 10).action()).isEqualTo(Action.ACCEPT);
  }

  @Test
  void aConsumerThatGoesBackWhileTrackingIsSoughtOnAndThenReported() {
    TpStateMachine c = expecting(0);
    for (long o = 0; o < 30; o++) {
      assertThat(c.check(o).action()).isEqualTo(Action.ACCEPT);
    }
    assertSeek(c.check(0), 30);
    c.batchEnded();
    Step again = deliver(c, 0);
    assertThat(again.action()).isEqualTo(Action.DISCONTINUITY);
    assertThat(again.discontinuity().expected()).isEqualTo(30);
  }

  @Test
  void aRedeliveredBatchIsSoughtPastAndGoesOn() {
    TpStateMachine c = expecting(0);
    c.check(0);
    c.check(1);
    assertSeek(c.check(1), 2);
    c.batchEnded();
    assertThat(deliver(c, 2).action()).isEqualTo(Action.ACCEPT);
  }

  @Test
  void aNewTpStartingAtZeroIsTakenAsItIs() {
    TpStateMachine c = machine(OptionalLong.empty());
    Step step = c.check(0);
    assertThat(step.action()).isEqualTo(Action.ACCEPT);
    assertThat(step.notice()).isNull();
  }

  @Test
  void aNewTpAboveZeroSaysWhetherKafkaStillHoldsTheRecordsBelow() {
    TpStateMachine atGroupOffset = machine(OptionalLong.empty());
    assertSeek(deliver(atGroupOffset, 700), 0);
    Step heldBelow = deliver(atGroupOffset, 0);
    assertSeek(heldBelow, 700);
    assertThat(heldBelow.notice()).contains("rt-0", "offset 700", "0..699", "still in Kafka");
    assertThat(deliver(atGroupOffset, 700).action()).isEqualTo(Action.ACCEPT);

    TpStateMachine afterExpiry = machine(OptionalLong.empty());
    assertSeek(deliver(afterExpiry, 700), 0);
    Step expired = deliver(afterExpiry, 700);
    assertThat(expired.action()).isEqualTo(Action.ACCEPT);
    assertThat(expired.notice()).contains("rt-0", "offset 700", "expired");
    assertThat(afterExpiry.highest()).isEqualTo(700);
  }
}
