package io.skippr.connect.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class MdcThreadFactoryTest {

  @AfterEach
  void clear() {
    MDC.clear();
  }

  @Test
  void threadsAreNumberedDaemonsWithTheMdcOfWhoMadeTheFactory() throws Exception {
    MDC.put("connector.context", "[orders|task-0] ");
    MdcThreadFactory factory = new MdcThreadFactory("skippr-test");
    MDC.clear();
    AtomicReference<String> seen = new AtomicReference<>();
    Thread first = factory.newThread(() -> seen.set(MDC.get("connector.context")));
    Thread second = factory.newThread(() -> {});
    first.start();
    first.join();

    assertThat(seen.get()).isEqualTo("[orders|task-0] ");
    assertThat(first.getName()).isEqualTo("skippr-test-1");
    assertThat(second.getName()).isEqualTo("skippr-test-2");
    assertThat(first.isDaemon()).isTrue();
    assertThat(second.isDaemon()).isTrue();
  }

  @Test
  void submittedWorkRunsWithTheSubmittersMdcAndTheThreadKeepsItsOwn() throws Exception {
    MDC.put("who", "pool");
    ExecutorService pool = Executors.newSingleThreadExecutor(new MdcThreadFactory("skippr-pool"));
    try {
      MDC.put("who", "caller");
      String inCallable = pool.submit(MdcThreadFactory.withCallersMdc(() -> MDC.get("who"))).get();
      AtomicReference<String> inRunnable = new AtomicReference<>();
      pool.submit(MdcThreadFactory.withCallersMdc(() -> inRunnable.set(MDC.get("who")))).get();
      Map<String, String> after = pool.submit(MDC::getCopyOfContextMap).get();

      assertThat(inCallable).isEqualTo("caller");
      assertThat(inRunnable.get()).isEqualTo("caller");
      assertThat(after).containsExactly(Map.entry("who", "pool"));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void workOfACallerWithoutMdcRunsWithout() throws Exception {
    MDC.put("who", "pool");
    ExecutorService pool = Executors.newSingleThreadExecutor(new MdcThreadFactory("skippr-pool"));
    try {
      MDC.clear();
      assertThat(pool.submit(MdcThreadFactory.withCallersMdc(() -> MDC.get("who"))).get()).isNull();
      assertThat(pool.submit(() -> MDC.get("who")).get()).isEqualTo("pool");
    } finally {
      pool.shutdownNow();
    }
  }
}
