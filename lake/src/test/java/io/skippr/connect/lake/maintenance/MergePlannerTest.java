package io.skippr.connect.lake.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.log.CompactionId;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LiveFile;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which files a TP's maintenance merges, and what a merge by key keeps. */
class MergePlannerTest {
  private static final LakeLayout LAYOUT = new LakeLayout();
  private static final CompactionConfig.Settings SETTINGS =
      new CompactionConfig.Settings(true, 1_000_000, 2, 1000, 0);

  @Test
  void aMergeByKeyKeepsItsDeletesWhileAnOlderGenerationOfThePathHasLiveFiles() {
    Map<String, LiveFile> live = new LinkedHashMap<>();
    add(live, "t", "day=1", 0, 0, 9);
    add(live, "t", "day=1", 0, 10, 19);
    add(live, "t", "day=1", 1, 0, 4);
    add(live, "t", "day=1", 1, 5, 9);
    add(live, "t", "day=2", 1, 0, 4);
    add(live, "t", "day=2", 1, 5, 9);

    List<MergePlan> plans =
        new MergePlanner(LAYOUT, SETTINGS, ".parquet", true).plan("orders", 0, live);

    assertThat(plans).hasSize(3);
    plans.sort(Comparator.comparing(MergePlan::output));
    assertThat(plans)
        .extracting(plan -> generationOf(plan) + " " + pathOf(plan) + " " + plan.keepsDeletes())
        .as("generation 1 of day=1 may delete keys generation 0 still holds; day=2 has no older")
        .containsExactlyInAnyOrder("0 day=1 false", "1 day=1 true", "1 day=2 false");
  }

  @Test
  void aMergeThatIsNotByKeyNeverKeepsDeletesItHasNone() {
    Map<String, LiveFile> live = new LinkedHashMap<>();
    add(live, "t", "day=1", 0, 0, 9);
    add(live, "t", "day=1", 1, 0, 4);
    add(live, "t", "day=1", 1, 5, 9);

    List<MergePlan> plans =
        new MergePlanner(LAYOUT, SETTINGS, ".parquet", false).plan("orders", 0, live);

    assertThat(plans).hasSize(1);
    assertThat(plans.get(0).keepsDeletes()).isFalse();
  }

  private static void add(
      Map<String, LiveFile> live, String table, String path, long gen, long start, long end) {
    String id = CompactionId.unit("orders", 0, gen, start, end).toString();
    String key = LAYOUT.fileKey(table, path, id, ".parquet");
    live.put(key, new LiveFile(key, end - start + 1, 100, "00", "schema"));
  }

  private static long generationOf(MergePlan plan) {
    return CompactionId.parse(plan.id()).orElseThrow().generation();
  }

  private static String pathOf(MergePlan plan) {
    return plan.output().contains("day=1") ? "day=1" : "day=2";
  }
}
