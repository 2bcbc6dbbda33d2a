package io.skippr.connect.source.poll;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.poll.FixtureConfigs.Listing;
import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every pagination mode against the fixture API: 7 records share each timestamp and pages hold 10,
 * so equal cursors straddle page borders; records are added during a pass and after one (one with
 * the very timestamp the pass ended at). Each record lands exactly once, in the API's order.
 */
class PaginationModesTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @TempDir Path dir;
  private PollFixtureApi api;
  private PollHarness harness;

  @BeforeEach
  void startApi() throws Exception {
    api = PollFixtureApi.start(7);
  }

  @AfterEach
  void stop() {
    if (harness != null) {
      harness.close();
    }
    api.close();
  }

  @ParameterizedTest
  @EnumSource(Listing.class)
  void everyRecordLandsOnceAcrossPagesAndPasses(Listing listing) throws Exception {
    api.add(57);
    harness = new PollHarness(dir, Map.of(), FixtureConfigs.of(api, listing)).start();
    harness.runUntil(TIMEOUT, "57 records", () -> harness.landed.size() >= 57);
    assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEqualTo(api.items().ids());

    // A record with the timestamp the first pass ended at, then more during the next pass.
    api.items().addAtLastTimestamp();
    AtomicBoolean addedDuringPass = new AtomicBoolean();
    api.afterEachPage(
        served -> {
          if (addedDuringPass.compareAndSet(false, true)) {
            api.add(4);
          }
        });
    api.add(13);
    int expected = 57 + 1 + 13 + 4;
    harness.runUntil(TIMEOUT, expected + " records", () -> harness.landed.size() >= expected);
    waitOnePassMore();

    assertThat(api.items().ids()).hasSize(expected);
    assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEqualTo(api.items().ids());
    assertThat(harness.landed(FixtureConfigs.TOPIC).get(0).key()).isEqualTo(1L);
  }

  @Test
  void pagesSmallerThanTheLimitAreReadToTheEndOfThePass() throws Exception {
    api.add(35);
    Map<String, String> config = new HashMap<>(FixtureConfigs.of(api, Listing.PAGE));
    config.put("pagination.limit.param", ""); // the API's own page size (10) applies
    config.put("pagination.limit", "100");
    config.put("poll.interval.ms", "600000"); // one pass only within this test
    harness = new PollHarness(dir, Map.of(), config).start();
    harness.runUntil(TIMEOUT, "35 records in one pass", () -> harness.landed.size() >= 35);
    assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEqualTo(api.items().ids());
    assertThat(api.served())
        .extracting(s -> s.query().get("page"))
        .containsExactly("1", "2", "3", "4");
  }

  /** A further pass over the same data must deliver nothing. */
  private void waitOnePassMore() throws InterruptedException {
    long pages = api.pagesServed();
    List<Long> before = new ArrayList<>(harness.landedIds(FixtureConfigs.TOPIC));
    harness.runUntil(TIMEOUT, "two more pages served", () -> api.pagesServed() >= pages + 2);
    assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEqualTo(before);
  }
}
