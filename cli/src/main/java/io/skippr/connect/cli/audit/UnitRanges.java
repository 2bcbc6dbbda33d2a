package io.skippr.connect.cli.audit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The offset ranges a TP's committed units cover, read from its log alone: each generation's range,
 * units that overlap, and the holes between units that Kafka must tell apart (records there, or
 * none).
 *
 * <p>Generations: a generation that starts past where the previous one ended leaves a hole that is
 * checked like any other; one that starts at or below it (a recreated topic, a consumer moved back)
 * restarts the comparison, and earlier generations are only checked for overlaps.
 */
final class UnitRanges {

  /**
   * What the log shows.
   *
   * @param findings overlaps and where generations start
   * @param holes the holes to check against Kafka
   */
  record Layout(List<TpReport.Range> ranges, List<Finding> findings, List<OffsetHole> holes) {}

  private UnitRanges() {}

  static Layout of(TpLake lake) {
    List<TpReport.Range> ranges = new ArrayList<>();
    List<Finding> findings = new ArrayList<>();
    List<OffsetHole> holes = new ArrayList<>();
    Long chainEnd = null;
    for (TpLake.Generation gen : lake.generations()) {
      List<TpLake.Unit> units = sorted(gen.units());
      ranges.add(range(gen, units));
      Long start = startOf(gen, units);
      if (gen.number() == 0) {
        if (start != null && start > 0) {
          holes.add(new OffsetHole(0, start - 1, 0, "below the lake's first unit"));
        }
      } else if (start == null || chainEnd == null || start <= chainEnd) {
        findings.add(RangeFindings.generationRestart(gen, start, chainEnd));
        holes.clear();
        chainEnd = start == null ? null : start - 1;
      } else {
        findings.add(RangeFindings.generationAfter(gen, start, chainEnd));
        if (start > chainEnd + 1) {
          holes.add(new OffsetHole(chainEnd + 1, start - 1, gen.number(), between(gen)));
        }
      }
      if (gen.declaredStart() >= 0 && !units.isEmpty() && units.get(0).start() > start) {
        holes.add(
            new OffsetHole(
                start,
                units.get(0).start() - 1,
                gen.number(),
                "between the start of generation " + gen.number() + " and its first unit"));
      }
      Long end = withinGeneration(lake, gen.number(), units, holes, findings);
      chainEnd = end != null ? end : chainEnd;
    }
    return new Layout(ranges, findings, holes);
  }

  private static String between(TpLake.Generation gen) {
    return "between generation "
        + (gen.number() - 1)
        + " and generation "
        + gen.number()
        + " ("
        + gen.reason()
        + ")";
  }

  /** Overlaps and holes between the units of one generation; returns its last offset. */
  private static Long withinGeneration(
      TpLake lake,
      long generation,
      List<TpLake.Unit> units,
      List<OffsetHole> holes,
      List<Finding> out) {
    Long end = null;
    TpLake.Unit reaching = null;
    for (TpLake.Unit unit : units) {
      if (end != null && unit.start() <= end) {
        long last = Math.min(unit.end(), end);
        out.add(RangeFindings.overlap(lake, reaching, unit, last, generation));
      } else if (end != null && unit.start() > end + 1) {
        holes.add(
            new OffsetHole(end + 1, unit.start() - 1, generation, "in generation " + generation));
      }
      if (end == null || unit.end() > end) {
        end = unit.end();
        reaching = unit;
      }
    }
    return end;
  }

  /** The first offset of a generation: the one its entry declares, else its first unit's. */
  private static Long startOf(TpLake.Generation gen, List<TpLake.Unit> units) {
    if (gen.declaredStart() >= 0) {
      return gen.declaredStart();
    }
    return units.isEmpty() ? null : units.get(0).start();
  }

  private static TpReport.Range range(TpLake.Generation gen, List<TpLake.Unit> units) {
    Long start = units.isEmpty() ? null : units.get(0).start();
    Long end = units.stream().map(TpLake.Unit::end).max(Long::compare).orElse(null);
    return new TpReport.Range(gen.number(), start, end, units.size(), gen.reason());
  }

  /** Units by offset; a unit committed twice under one id is the same files, counted once. */
  private static List<TpLake.Unit> sorted(List<TpLake.Unit> units) {
    List<TpLake.Unit> sorted = new ArrayList<>(new LinkedHashSet<>(units));
    sorted.sort(Comparator.comparingLong(TpLake.Unit::start).thenComparingLong(TpLake.Unit::end));
    return sorted;
  }
}
