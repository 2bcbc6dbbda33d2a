package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Reads the TP logs under {@code {lake}/_skippr/log/{topic}/{partition}/} as plain JSON (not
 * through the sink's own codec), so the checks do not trust the code they check.
 */
final class LakeLogAudit {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One log entry: its file, kind, epoch, unit id and owner (null for entries without one; only
   * {@code epoch} entries name their owner).
   */
  record Entry(Path file, String kind, long epoch, String id, String owner) {}

  private LakeLogAudit() {}

  /** The entries of one TP log in sequence order. */
  static List<Entry> entries(Path lake, String topic, int partition) throws IOException {
    Path dir = lake.resolve("_skippr/log").resolve(topic).resolve(String.valueOf(partition));
    List<Entry> entries = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        JsonNode node = JSON.readTree(file.toFile());
        entries.add(
            new Entry(
                file,
                node.get("kind").asText(),
                node.get("epoch").asLong(),
                node.hasNonNull("id") ? node.get("id").asText() : null,
                node.hasNonNull("owner") ? node.get("owner").asText() : null));
      }
    }
    return entries;
  }

  /**
   * How many entries of a kind ({@code commit}, {@code compact-commit}, ...) a topic's logs hold.
   */
  static long count(Path lake, String topic, int partitions, String kind) throws IOException {
    long count = 0;
    for (int partition = 0; partition < partitions; partition++) {
      count += entries(lake, topic, partition).stream().filter(e -> e.kind().equals(kind)).count();
    }
    return count;
  }

  /** Every intent is followed by a commit or abort of the same id. */
  static void assertNoUnresolvedIntent(List<Entry> entries) {
    Set<String> open = new HashSet<>();
    for (Entry entry : entries) {
      switch (entry.kind()) {
        case "intent" -> open.add(entry.id());
        case "commit", "abort" -> open.remove(entry.id());
        default -> {}
      }
    }
    assertThat(open).as("intents without a later commit or abort in " + entries).isEmpty();
  }

  /** No entry of an older epoch was appended after a newer epoch's entry (no zombie write). */
  static void assertEpochsNeverGoBack(List<Entry> entries) {
    long newest = Long.MIN_VALUE;
    for (Entry entry : entries) {
      assertThat(entry.epoch())
          .as("epoch of " + entry + " after an entry of epoch " + newest)
          .isGreaterThanOrEqualTo(newest);
      newest = Math.max(newest, entry.epoch());
    }
  }

  /** How many {@code epoch} entries (claims of ownership) the log holds. */
  static long claims(List<Entry> entries) {
    return entries.stream().filter(e -> e.kind().equals("epoch")).count();
  }
}
