package io.skippr.connect.lake.log;

import io.skippr.connect.lake.storage.StorageKeys;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.TopicPartition;

/**
 * The name of the rows of one unit or one merge, and the stem of every file holding them (see
 * docs/lake-format.md): {@code {topic}+{partition}+{start:020d}+{end:020d}} for a unit of
 * generation 0, {@code {topic}+{partition}+g{generation}+{start:020d}+{end:020d}} above it, and
 * either followed by {@code +m{hash}} for a merge's output. Kafka topic names cannot hold {@code
 * +}, so no two ids collide and the first two fields always say which TP wrote the rows. Ids are
 * built and read here only.
 *
 * @param topic the topic (or {@code sync~...} source of a sync run)
 * @param partition its partition
 * @param generation the TP generation the rows come from
 * @param start the first offset of the rows
 * @param end the last offset of the rows
 * @param merge the hash of a merge's inputs, or null for a unit's id
 */
public record CompactionId(
    String topic, int partition, long generation, long start, long end, String merge) {

  private static final Pattern ID =
      Pattern.compile("([^+/]+)\\+(\\d{1,9})\\+(?:g(\\d+)\\+)?(\\d+)\\+(\\d+)(?:\\+m([0-9a-f]+))?");

  /** The id of a unit. */
  public static CompactionId unit(
      String topic, int partition, long generation, long start, long end) {
    return new CompactionId(topic, partition, generation, start, end, null);
  }

  /** The id of a merge of this id's TP and generation over {@code [start, end]}. */
  public static CompactionId merge(
      String topic, int partition, long generation, long start, long end, String hash) {
    return new CompactionId(topic, partition, generation, start, end, hash);
  }

  /** Reads an id; empty when {@code id} is not one a unit or a merge of this lake is named by. */
  public static Optional<CompactionId> parse(String id) {
    Matcher m = ID.matcher(id);
    if (!m.matches()) {
      return Optional.empty();
    }
    return Optional.of(
        new CompactionId(
            m.group(1),
            Integer.parseInt(m.group(2)),
            m.group(3) == null ? 0 : Long.parseLong(m.group(3)),
            Long.parseLong(m.group(4)),
            Long.parseLong(m.group(5)),
            m.group(6)));
  }

  /**
   * The TP a data file's name says wrote it: the name starts with {@code {topic}+{partition}+}.
   * Only the name's start is read, so a file a crashed writer left half named is still attributed
   * to its TP.
   */
  public static Optional<TopicPartition> writerOf(String fileKey) {
    String name = StorageKeys.baseName(fileKey);
    int first = name.indexOf('+');
    int second = first < 0 ? -1 : name.indexOf('+', first + 1);
    if (first <= 0 || second < 0) {
      return Optional.empty();
    }
    String partition = name.substring(first + 1, second);
    if (partition.isEmpty()
        || partition.length() > 9
        || !partition.chars().allMatch(Character::isDigit)) {
      return Optional.empty();
    }
    return Optional.of(new TopicPartition(name.substring(0, first), Integer.parseInt(partition)));
  }

  /** True when a data file's name says one of the TP's units or merges wrote it. */
  public static boolean namedFor(String fileKey, String topic, int partition) {
    return StorageKeys.baseName(fileKey).startsWith(topic + "+" + partition + "+");
  }

  /** True for the id of a merge's output. */
  public boolean isMerge() {
    return merge != null;
  }

  /** The id as files and log entries spell it; generation 0 keeps the format of older lakes. */
  @Override
  public String toString() {
    String range =
        generation == 0
            ? String.format("%s+%d+%020d+%020d", topic, partition, start, end)
            : String.format("%s+%d+g%d+%020d+%020d", topic, partition, generation, start, end);
    return merge == null ? range : range + "+m" + merge;
  }
}
