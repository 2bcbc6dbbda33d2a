package io.skippr.connect.cli.lake;

import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.maintenance.FileId;
import java.util.Comparator;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;

/** What a lake file's name says about its rows: the TP that wrote them and their offsets. */
public final class LakeFileNames {
  private static final LakeLayout LAYOUT = new LakeLayout("");

  /**
   * File keys in the order of their rows in the lake: by TP, then generation and first offset, so
   * that within a TP (and partition path) a later file holds later records, a merged file included
   * (it covers its inputs' offsets). Names that say neither come last, by key.
   */
  public static final Comparator<String> ROW_ORDER =
      Comparator.comparing((String key) -> writer(key).isEmpty())
          .thenComparing(key -> writer(key).map(TopicPartition::topic).orElse(""))
          .thenComparingInt(key -> writer(key).map(TopicPartition::partition).orElse(0))
          .thenComparingLong(key -> range(key).map(FileId::generation).orElse(0L))
          .thenComparingLong(key -> range(key).map(FileId::start).orElse(0L))
          .thenComparing(Comparator.naturalOrder());

  private LakeFileNames() {}

  /**
   * The TP a file's name says wrote it: file names start with the compaction id {@code
   * {topic}+{partition}+...}, and topic names cannot hold {@code +}.
   */
  public static Optional<TopicPartition> writer(String key) {
    String name = key.substring(key.lastIndexOf('/') + 1);
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

  private static Optional<FileId> range(String key) {
    return Optional.ofNullable(FileId.parse(LAYOUT, key));
  }
}
