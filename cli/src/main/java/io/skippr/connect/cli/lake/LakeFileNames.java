package io.skippr.connect.cli.lake;

import io.skippr.connect.lake.log.CompactionId;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.maintenance.FileId;
import java.util.Comparator;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;

/** What a lake file's name says about its rows: the TP that wrote them and their offsets. */
public final class LakeFileNames {
  private static final LakeLayout LAYOUT = new LakeLayout();

  /**
   * File keys in the order of their rows in the lake: by TP, then generation and first offset, so
   * that within a TP (and partition path) a later file holds later records, a merged file included
   * (it covers its inputs' offsets). Names that say neither come last, by key.
   */
  public static final Comparator<String> ROW_ORDER =
      Comparator.comparing((String key) -> CompactionId.writerOf(key).isEmpty())
          .thenComparing(key -> CompactionId.writerOf(key).map(TopicPartition::topic).orElse(""))
          .thenComparingInt(
              key -> CompactionId.writerOf(key).map(TopicPartition::partition).orElse(0))
          .thenComparingLong(key -> range(key).map(FileId::generation).orElse(0L))
          .thenComparingLong(key -> range(key).map(FileId::start).orElse(0L))
          .thenComparing(Comparator.naturalOrder());

  private LakeFileNames() {}

  private static Optional<FileId> range(String key) {
    return Optional.ofNullable(FileId.parse(LAYOUT, key));
  }
}
