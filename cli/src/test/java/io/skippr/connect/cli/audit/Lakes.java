package io.skippr.connect.cli.audit;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** TP logs for tests, as {@link LakeReader} folds them. */
final class Lakes {
  private Lakes() {}

  static TpLake.Unit unit(String topic, int partition, long start, long end) {
    return new TpLake.Unit(
        String.format("%s+%d+%020d+%020d", topic, partition, start, end), start, end);
  }

  /** Generation 0 of {@code topic-partition} with units {@code [start, end]} pairs. */
  static TpLake log(String topic, int partition, long... ranges) {
    return withGenerations(
        topic, partition, List.of(TpLake.Generation.first(units(topic, partition, ranges))));
  }

  static List<TpLake.Unit> units(String topic, int partition, long... ranges) {
    List<TpLake.Unit> units = new ArrayList<>();
    for (int i = 0; i < ranges.length; i += 2) {
      units.add(unit(topic, partition, ranges[i], ranges[i + 1]));
    }
    return units;
  }

  static TpLake withGenerations(String topic, int partition, List<TpLake.Generation> generations) {
    TpLake.Generation last = generations.get(generations.size() - 1);
    Long resume =
        last.units().isEmpty()
            ? (last.declaredStart() >= 0 ? last.declaredStart() : null)
            : last.units().get(last.units().size() - 1).end() + 1;
    return new TpLake(topic, partition, generations, null, Set.of(), resume, List.of(), null);
  }

  static TpLake withPending(TpLake lake, TpLake.Pending pending) {
    return new TpLake(
        lake.topic(),
        lake.partition(),
        lake.generations(),
        pending,
        lake.liveFiles(),
        pending.start(),
        lake.missingEntries(),
        lake.maintenance());
  }

  static TpLake withFiles(TpLake lake, Set<String> live) {
    return new TpLake(
        lake.topic(),
        lake.partition(),
        lake.generations(),
        lake.pending(),
        live,
        lake.resume(),
        lake.missingEntries(),
        lake.maintenance());
  }

  static TpLake withMaintenance(TpLake lake, TpLake.Maintenance maintenance) {
    return new TpLake(
        lake.topic(),
        lake.partition(),
        lake.generations(),
        lake.pending(),
        lake.liveFiles(),
        lake.resume(),
        lake.missingEntries(),
        maintenance);
  }
}
