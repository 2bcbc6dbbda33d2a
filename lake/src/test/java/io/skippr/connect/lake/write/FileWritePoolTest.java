package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class FileWritePoolTest {

  @Test
  void returnsResultsInTheJobsOrder() throws IOException {
    try (FileWritePool pool = new FileWritePool(4)) {
      List<FileWritePool.Job<Integer>> jobs = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        int n = i;
        jobs.add(() -> n * n);
      }
      List<Integer> results = pool.runAll(jobs);
      assertThat(results).hasSize(50);
      for (int i = 0; i < 50; i++) {
        assertThat(results.get(i)).isEqualTo(i * i);
      }
    }
  }

  @Test
  void runsJobsSideBySide() throws IOException {
    // Each job waits until both have begun: only a pool running two at once gets past it.
    CountDownLatch bothBegun = new CountDownLatch(2);
    FileWritePool.Job<Boolean> job =
        () -> {
          bothBegun.countDown();
          try {
            return bothBegun.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            throw new IOException(e);
          }
        };
    try (FileWritePool pool = new FileWritePool(2)) {
      assertThat(pool.runAll(List.of(job, job))).containsExactly(true, true);
    }
  }

  @Test
  void concurrencyOneWritesOnTheCallersThread() throws IOException {
    Thread caller = Thread.currentThread();
    try (FileWritePool pool = new FileWritePool(1)) {
      assertThat(pool.runAll(List.of(Thread::currentThread, Thread::currentThread)))
          .containsOnly(caller);
    }
  }

  @Test
  void aFailureSkipsJobsNotBegunAndWaitsForThoseRunning() throws IOException {
    AtomicInteger begun = new AtomicInteger();
    AtomicInteger running = new AtomicInteger();
    CountDownLatch failed = new CountDownLatch(1);
    CountDownLatch bBegun = new CountDownLatch(1);
    // Released only after runAll returns: a pool that waits for job b sees it end by its timeout,
    // one that does not wait leaves it running.
    CountDownLatch release = new CountDownLatch(1);
    List<FileWritePool.Job<String>> jobs = new ArrayList<>();
    jobs.add(
        () -> {
          begun.incrementAndGet();
          await(bBegun, 30);
          failed.countDown();
          throw new IOException("disk full writing a.parquet");
        });
    jobs.add(
        () -> {
          begun.incrementAndGet();
          running.incrementAndGet();
          bBegun.countDown();
          try {
            await(failed, 30);
            release.await(1, TimeUnit.SECONDS);
            return "b";
          } catch (InterruptedException e) {
            throw new IOException(e);
          } finally {
            running.decrementAndGet();
          }
        });
    for (int i = 0; i < 20; i++) {
      jobs.add(
          () -> {
            begun.incrementAndGet();
            return "later";
          });
    }
    try (FileWritePool pool = new FileWritePool(2)) {
      assertThatThrownBy(() -> pool.runAll(jobs))
          .isInstanceOf(IOException.class)
          .hasMessage("disk full writing a.parquet");
      assertThat(running.get()).as("jobs still running after runAll").isZero();
      release.countDown();
    }
    assertThat(begun.get()).isLessThan(jobs.size());
  }

  @Test
  void runtimeFailuresKeepTheirType() {
    try (FileWritePool pool = new FileWritePool(3)) {
      assertThatThrownBy(
              () ->
                  pool.runAll(
                      List.<FileWritePool.Job<String>>of(
                          () -> "ok",
                          () -> {
                            throw new IllegalStateException("bad value in column x");
                          })))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("bad value in column x");
    }
  }

  @Test
  void jobsSeeTheCallersMdc() throws IOException {
    MDC.put("connector.context", "[lake|task-0] ");
    try (FileWritePool pool = new FileWritePool(2)) {
      FileWritePool.Job<String> context = () -> MDC.get("connector.context");
      assertThat(pool.runAll(List.of(context, context, context))).containsOnly("[lake|task-0] ");
    } finally {
      MDC.remove("connector.context");
    }
  }

  @Test
  void rejectsConcurrencyBelowOne() {
    assertThatThrownBy(() -> new FileWritePool(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1");
  }

  private static void await(CountDownLatch latch, int seconds) throws IOException {
    try {
      if (!latch.await(seconds, TimeUnit.SECONDS)) {
        throw new IOException("gave up waiting");
      }
    } catch (InterruptedException e) {
      throw new IOException(e);
    }
  }
}
