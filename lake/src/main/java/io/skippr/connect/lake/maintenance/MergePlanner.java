package io.skippr.connect.lake.maintenance;

import io.skippr.connect.common.Sha256;
import io.skippr.connect.lake.log.CompactionId;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LiveFile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which small files of a TP to merge. Files are grouped by table, partition path, generation and
 * schema (a merge copies rows without changing their columns); a group is merged once it holds
 * {@code compaction.min.files} files below 0.75 x {@code compaction.target.bytes}, in runs of
 * consecutive files (by offset) of about the target size.
 */
final class MergePlanner {
  private final LakeLayout layout;
  private final CompactionConfig.Settings settings;
  private final String extension;
  private final boolean byKey;

  /**
   * @param extension the file name suffix merged files get (the configured codec's)
   * @param byKey whether rows are merged by key: then a partition path's merge takes every live
   *     file of it (older versions of a key may be in any), not only the small ones
   */
  MergePlanner(
      LakeLayout layout, CompactionConfig.Settings settings, String extension, boolean byKey) {
    this.layout = layout;
    this.settings = settings;
    this.extension = extension;
    this.byKey = byKey;
  }

  List<MergePlan> plan(String topic, int partition, Map<String, LiveFile> live) {
    Map<String, List<Placed>> groups = new TreeMap<>();
    Map<String, Long> oldestGeneration = new HashMap<>();
    for (LiveFile file : live.values()) {
      FileId id = FileId.parse(layout, file.key());
      if (id == null || !CompactionId.namedFor(file.key(), topic, partition)) {
        continue;
      }
      String group =
          String.join(
              "\u0000",
              id.table(),
              id.partitionPath(),
              Long.toString(id.generation()),
              byKey ? "" : String.valueOf(file.schemaFingerprint()));
      groups.computeIfAbsent(group, g -> new ArrayList<>()).add(new Placed(id, file));
      oldestGeneration.merge(pathOf(id), id.generation(), Math::min);
    }
    List<MergePlan> plans = new ArrayList<>();
    for (List<Placed> group : groups.values()) {
      long small = group.stream().filter(p -> p.file.bytes() < settings.smallBytes()).count();
      if (small < settings.minFiles()) {
        continue;
      }
      group.sort(
          Comparator.comparingLong((Placed p) -> p.id.start()).thenComparing(p -> p.id.id()));
      if (byKey) {
        // The whole path of a generation: its current state. A key it deletes may still be in a
        // file of an older generation, which this merge does not take: the delete row stays.
        FileId first = group.get(0).id;
        boolean keepsDeletes = oldestGeneration.get(pathOf(first)) < first.generation();
        addPlan(plans, topic, partition, group, keepsDeletes);
      } else {
        plans.addAll(
            runs(
                topic,
                partition,
                group.stream().filter(p -> p.file.bytes() < settings.smallBytes()).toList()));
      }
    }
    return plans;
  }

  /** Consecutive files of about the target size; a run of one file is left alone. */
  private List<MergePlan> runs(String topic, int partition, List<Placed> group) {
    List<MergePlan> plans = new ArrayList<>();
    List<Placed> run = new ArrayList<>();
    long bytes = 0;
    for (Placed file : group) {
      if (!run.isEmpty() && bytes + file.file.bytes() > settings.targetBytes()) {
        addPlan(plans, topic, partition, run, false);
        run = new ArrayList<>();
        bytes = 0;
      }
      run.add(file);
      bytes += file.file.bytes();
    }
    addPlan(plans, topic, partition, run, false);
    return plans;
  }

  private void addPlan(
      List<MergePlan> plans, String topic, int partition, List<Placed> run, boolean keepsDeletes) {
    if (run.size() < 2) {
      return;
    }
    FileId first = run.get(0).id;
    long start = run.stream().mapToLong(p -> p.id.start()).min().orElseThrow();
    long end = run.stream().mapToLong(p -> p.id.end()).max().orElseThrow();
    StringBuilder inputs = new StringBuilder();
    run.forEach(p -> inputs.append(p.id.id()).append('\n'));
    String id =
        CompactionId.merge(
                topic,
                partition,
                first.generation(),
                start,
                end,
                Sha256.hex(inputs.toString()).substring(0, 12))
            .toString();
    plans.add(
        new MergePlan(
            id,
            run.stream().map(p -> p.file).toList(),
            layout.fileKey(first.table(), first.partitionPath(), id, extension),
            keepsDeletes));
  }

  private static String pathOf(FileId id) {
    return id.table() + "\u0000" + id.partitionPath();
  }

  private record Placed(FileId id, LiveFile file) {}
}
