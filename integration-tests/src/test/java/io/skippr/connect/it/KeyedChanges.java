package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The changes a test sent to a keyed topic, by partition and offset (values and tombstones), and
 * whether a reader's rows are the current state after some prefix of every partition: what a reader
 * of a merge_by_key table must see at any moment while the sink writes.
 */
final class KeyedChanges {
  /** One record: a value (balance) or a tombstone (null). */
  record Change(long offset, String key, Long balance) {}

  private final Map<Integer, List<Change>> byPartition = new TreeMap<>();

  /**
   * Notes the next change of a partition, before it is sent: with one idempotent producer and no
   * transactions, a partition's offsets are 0, 1, 2, ... in the order of sending.
   *
   * @return its offset
   */
  synchronized long next(int partition, String key, Long balance) {
    List<Change> changes = byPartition.computeIfAbsent(partition, p -> new ArrayList<>());
    changes.add(new Change(changes.size(), key, balance));
    return changes.size() - 1;
  }

  private synchronized Map<Integer, List<Change>> snapshot() {
    Map<Integer, List<Change>> copy = new TreeMap<>();
    byPartition.forEach((p, changes) -> copy.put(p, List.copyOf(changes)));
    return copy;
  }

  /** The current state after every change: key → balance of the live keys. */
  Map<String, Long> finalState() {
    Map<String, Long> state = new TreeMap<>();
    snapshot()
        .forEach(
            (p, changes) ->
                state(changes, Long.MAX_VALUE).forEach((k, c) -> state.put(k, c.balance())));
    return state;
  }

  /**
   * Asserts that the rows ({@code __key}, {@code __partition}, {@code __offset}, {@code balance})
   * are one per live key, and, per partition, exactly the state after the changes up to some offset
   * at or past the newest offset among them.
   */
  void assertPrefixState(JsonNode rows, String when) {
    Map<Integer, Map<String, Change>> seen = new HashMap<>();
    Map<String, Integer> keys = new HashMap<>();
    for (JsonNode row : rows) {
      String key = row.get("__key").asText();
      int partition = row.get("__partition").asInt();
      assertThat(keys.put(key, partition)).as(when + ": key " + key + " twice in " + rows).isNull();
      Long balance = row.get("balance").isNull() ? null : row.get("balance").asLong();
      seen.computeIfAbsent(partition, p -> new HashMap<>())
          .put(key, new Change(row.get("__offset").asLong(), key, balance));
    }
    Map<Integer, List<Change>> sent = snapshot();
    for (Map.Entry<Integer, List<Change>> entry : sent.entrySet()) {
      Map<String, Change> got = seen.getOrDefault(entry.getKey(), Map.of());
      long newest = got.values().stream().mapToLong(Change::offset).max().orElse(-1);
      boolean matches = false;
      for (Change change : entry.getValue()) {
        if (change.offset() >= newest && state(entry.getValue(), change.offset()).equals(got)) {
          matches = true;
          break;
        }
      }
      if (newest < 0 && got.isEmpty()) {
        matches = true; // nothing committed yet
      }
      assertThat(matches)
          .as(
              when
                  + ": partition "
                  + entry.getKey()
                  + " reads "
                  + got
                  + ", the state after no prefix of its changes")
          .isTrue();
    }
    assertThat(seen.keySet()).isSubsetOf(sent.keySet());
  }

  /** The live keys after the changes up to {@code last}, each with its newest change. */
  private static Map<String, Change> state(List<Change> changes, long last) {
    Map<String, Change> state = new HashMap<>();
    for (Change change : changes) {
      if (change.offset() > last) {
        break;
      }
      if (change.balance() == null) {
        state.remove(change.key());
      } else {
        state.put(change.key(), change);
      }
    }
    return state;
  }
}
