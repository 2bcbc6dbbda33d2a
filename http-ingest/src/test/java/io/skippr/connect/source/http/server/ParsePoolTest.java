package io.skippr.connect.source.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ParsePoolTest {

  @Test
  void aFullQueueRefusesAtOnceAndStopReturnsTheQueuedJobs() throws Exception {
    ParsePool pool = new ParsePool(1, 2);
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    assertThat(
            pool.submit(
                () -> {
                  running.countDown();
                  await(release);
                }))
        .isTrue();
    assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
    Runnable queued1 = () -> {};
    Runnable queued2 = () -> {};
    assertThat(pool.submit(queued1)).isTrue();
    assertThat(pool.submit(queued2)).isTrue();
    assertThat(pool.queued()).isEqualTo(2);
    assertThat(pool.submit(() -> {})).as("third job beyond the queue").isFalse();
    assertThat(pool.stop()).containsExactly(queued1, queued2);
    assertThat(pool.stopped()).isTrue();
    assertThat(pool.submit(() -> {})).isFalse();
    release.countDown();
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
