package io.skippr.connect.cli.sync;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.StorageKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The number of each source partition of a pipeline run without Kafka: the partition of its TP log,
 * {@code _skippr/log/sync~{pipeline}/{n}/}. Numbers are kept in the lake ({@code
 * _skippr/sync/{pipeline}/partitions/{n:020d}.json}, created only if absent) before any unit of the
 * partition, so a restart gives every source partition its number again, whatever order the source
 * delivers them in.
 *
 * <p>A source partition whose offset was imported ({@code skippr state import}) gets a new number:
 * its new log starts empty, so the imported offset, not the old log, says where it resumes. The
 * newest number of a partition is its number; the old log's files stay live.
 */
final class SyncPartitions {
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
  private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {};

  private final LakeStorage storage;
  private final String prefix;

  /** Current numbers by the canonical JSON of the partition (so 1 and 1L are one value). */
  private final Map<String, Integer> numbers = new HashMap<>();

  private final Map<Integer, Map<String, Object>> partitions = new TreeMap<>();

  /** How many numbers were given, current or not: the next one to give. */
  private int given;

  SyncPartitions(LakeStorage storage, String pipeline) {
    this.storage = storage;
    this.prefix = StorageKeys.join(LakeLayout.SYSTEM_DIR, "sync", pipeline, "partitions") + "/";
  }

  /** Reads the numbers given so far. */
  synchronized SyncPartitions load() throws IOException {
    numbers.clear();
    partitions.clear();
    given = 0;
    for (String key : storage.list(prefix)) {
      long n = LakeLayout.seqOf(key);
      if (n < 0) {
        continue;
      }
      JsonNode node = JSON.readTree(storage.read(key));
      Map<String, Object> partition = JSON.convertValue(node.get("partition"), MAP);
      Integer previous = numbers.put(canonical(partition), (int) n);
      if (previous != null && previous > n) {
        numbers.put(canonical(partition), previous);
      } else {
        if (previous != null) {
          partitions.remove(previous);
        }
        partitions.put((int) n, partition);
      }
      given = Math.max(given, (int) n + 1);
    }
    return this;
  }

  /** The current number of every source partition numbered so far. */
  synchronized Map<Integer, Map<String, Object>> all() {
    return Map.copyOf(partitions);
  }

  /** The partition's current number, if it has one. */
  synchronized Integer find(Map<String, ?> sourcePartition) {
    return numbers.get(canonical(copy(sourcePartition)));
  }

  /** The partition's number, given now (and kept in the lake) when it has none. */
  synchronized int numberOf(Map<String, ?> sourcePartition) {
    Integer known = find(sourcePartition);
    return known != null ? known : give(copy(sourcePartition), null);
  }

  /** Gives the partition a new number, whose log starts empty (after an offset import). */
  synchronized int renumber(Map<String, ?> sourcePartition) {
    return give(copy(sourcePartition), find(sourcePartition));
  }

  /** Numbers the partition unless another run numbered it past {@code replacing} meanwhile. */
  private int give(Map<String, Object> partition, Integer replacing) {
    String canonical = canonical(partition);
    try {
      while (true) {
        int n = given;
        ObjectNode node = JSON.createObjectNode();
        node.put("version", 1);
        node.put("kind", "sync-partition");
        node.set("partition", JSON.valueToTree(partition));
        String key = prefix + String.format("%020d.json", n);
        if (storage.createIfAbsent(key, JSON.writeValueAsBytes(node))) {
          if (replacing != null) {
            partitions.remove(replacing);
          }
          numbers.put(canonical, n);
          partitions.put(n, partition);
          given = n + 1;
          return n;
        }
        load(); // another run of the pipeline gave this number first
        Integer now = numbers.get(canonical);
        if (now != null && !now.equals(replacing)) {
          return now;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot number a source partition in " + storage.location(), e);
    }
  }

  static Map<String, Object> copy(Map<String, ?> map) {
    return map == null ? Map.of() : new LinkedHashMap<>(map);
  }

  /** The partition as JSON with sorted keys: equal for equal values of any number type. */
  static String canonical(Map<String, ?> value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (IOException e) {
      throw new IllegalArgumentException("a source partition that is not JSON: " + value, e);
    }
  }
}
