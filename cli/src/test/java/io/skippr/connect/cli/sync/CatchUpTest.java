package io.skippr.connect.cli.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.common.SourceCatchUp;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CatchUpTest {
  private final AtomicLong clock = new AtomicLong(1_000);

  private void advance(long millis) {
    clock.addAndGet(Duration.ofMillis(millis).toNanos());
  }

  @Test
  void idleCountsFromTheTasksStartAndTheLastRecordNeverDuringADelivery() {
    CatchUp catchUp = new CatchUp("idle-test", Duration.ofSeconds(5), clock::get);
    advance(60_000);
    assertThat(catchUp.caughtUp()).as("no task started yet").isFalse();
    catchUp.taskStarted();
    advance(4_999);
    assertThat(catchUp.caughtUp()).isFalse();
    catchUp.delivering();
    advance(30_000);
    assertThat(catchUp.caughtUp()).as("a batch is being written").isFalse();
    catchUp.delivered();
    advance(4_999);
    assertThat(catchUp.caughtUp()).isFalse();
    advance(1);
    assertThat(catchUp.caughtUp()).isTrue();
    assertThat(catchUp.reason()).isEqualTo("no record for 5000 ms");
  }

  @Test
  void endsAtOnceWhenEveryTaskSaysItReadEverything() {
    CatchUp catchUp = new CatchUp("report-test", Duration.ofMinutes(5), clock::get);
    Object one = new Object();
    Object two = new Object();
    catchUp.taskStarted();
    catchUp.taskStarted();
    SourceCatchUp.report("report-test", one, true);
    assertThat(catchUp.caughtUp()).as("the second task has not said").isFalse();
    SourceCatchUp.report("report-test", two, false);
    assertThat(catchUp.caughtUp()).isFalse();
    SourceCatchUp.report("report-test", two, true);
    assertThat(catchUp.caughtUp()).isTrue();
    assertThat(catchUp.reason()).isEqualTo("the source read everything there is");
    SourceCatchUp.forget("report-test", one);
    SourceCatchUp.forget("report-test", two);
  }
}
