package io.skippr.connect.source.poll;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.poll.FixtureConfigs.Listing;
import io.skippr.connect.testkit.pollapi.PollFixtureApi;
import io.skippr.connect.testkit.pollapi.PollFixtureApi.Served;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Restarts in the middle of a pass: after an aborted transaction (a page polled but never
 * committed), after half a page was committed (at-least-once flushes), and with Kafka's offsets
 * gone (resume from the state store's mirror) or both gone (start from cursor.initial).
 */
class RestartTest {
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
  void abortedPageIsReadAgainAfterARestart(Listing listing) throws Exception {
    api.add(47);
    harness = new PollHarness(dir, Map.of(), FixtureConfigs.of(api, listing)).start();
    harness.page(TIMEOUT);
    List<SourceRecord> lost = harness.pageAborted(TIMEOUT);
    assertThat(lost).isNotEmpty();
    harness.restart();
    harness.runUntil(TIMEOUT, "47 records", () -> harness.landed.size() >= 47);
    assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEqualTo(api.items().ids());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void halfCommittedPageResumesAfterItsLastCommittedRecord(boolean tiebreak) throws Exception {
    api.add(33);
    Map<String, String> config = new HashMap<>(FixtureConfigs.of(api, Listing.PAGE));
    if (!tiebreak) {
      config.remove("cursor.tiebreak.pointer");
    }
    harness = new PollHarness(dir, Map.of(), config).start();
    harness.page(TIMEOUT);
    List<SourceRecord> second = harness.pageAborted(TIMEOUT);
    // Records 11-14 share the timestamp of 15-17: only the position tells them apart.
    harness.commit(second, 4);
    harness.restart();
    harness.runUntil(TIMEOUT, "33 records", () -> harness.landed.size() >= 33);
    assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEqualTo(api.items().ids());
  }

  @Test
  void resumesFromTheStateStoreWhenKafkasOffsetsAreGone() throws Exception {
    api.add(40);
    harness = new PollHarness(dir, Map.of(), FixtureConfigs.of(api, Listing.TOKEN)).start();
    harness.runUntil(TIMEOUT, "40 records", () -> harness.landed.size() >= 40);
    String lastCursor = cursorOf(harness.landed.get(39));
    harness.stop();

    harness.kafkaOffsets.clear(); // the offsets topic is gone
    api.add(10);
    int servedBefore = api.served().size();
    harness.start();
    harness.runUntil(TIMEOUT, "50 records", () -> harness.landed.size() >= 50);

    assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEqualTo(api.items().ids());
    Served first = api.served().get(servedBefore);
    assertThat(first.query()).containsEntry("since", lastCursor);
  }

  @Test
  void startsFromCursorInitialWhenKafkaAndTheStoreAreBothGone() throws Exception {
    List<Long> ids = api.add(30);
    Map<String, String> config = new HashMap<>(FixtureConfigs.of(api, Listing.TOKEN));
    String initial = "2024-05-01T00:00:02Z"; // records 15 and later (7 per second)
    config.put("cursor.initial", initial);
    harness = new PollHarness(dir, Map.of(), config).start();
    harness.runUntil(TIMEOUT, "16 records", () -> harness.landed.size() >= 16);
    harness.stop();
    assertThat(harness.landedIds(FixtureConfigs.TOPIC)).isEqualTo(ids.subList(14, 30));

    harness.kafkaOffsets.clear();
    deleteRecursively(dir.resolve("data"));
    int servedBefore = api.served().size();
    harness.start();
    harness.runUntil(TIMEOUT, "16 records again", () -> harness.landed.size() >= 32);
    assertThat(api.served().get(servedBefore).query()).containsEntry("since", initial);
    assertThat(harness.landedIds(FixtureConfigs.TOPIC).subList(16, 32))
        .isEqualTo(ids.subList(14, 30));
  }

  private static String cursorOf(SourceRecord record) {
    return (String) ((Map<?, ?>) record.value()).get("updated_at");
  }

  private static void deleteRecursively(Path root) throws Exception {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
