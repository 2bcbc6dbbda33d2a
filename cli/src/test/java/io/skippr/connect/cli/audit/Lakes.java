package io.skippr.connect.cli.audit;

import io.skippr.connect.lake.log.LakeIdentity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;

/** TP logs for tests, as {@link LakeReader} folds them. */
final class Lakes {
  /** The lake of tests that write logs without giving the lake an identity first. */
  static final LakeIdentity LAKE = new LakeIdentity("lake-test", "", 1L);

  private Lakes() {}

  /** What a run of {@code skippr audit} printed, and its exit code. */
  record Run(int exit, String out, String err) {}

  /** Runs {@code skippr audit} with the arguments. */
  static Run audit(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new AuditCommand());
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

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
    return new TpLake(
        topic, partition, generations, null, Set.of(), resume, List.of(), null, Set.of());
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
        lake.maintenance(),
        lake.tables());
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
        lake.maintenance(),
        lake.tables());
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
        maintenance,
        lake.tables());
  }
}
