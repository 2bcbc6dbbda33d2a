package io.skippr.connect.cli.audit;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The report for people: a line per TP, its findings below it (a few of each kind), a summary. */
final class ReportText {
  /** Findings of one kind shown per TP; the JSON output has them all. */
  static final int SHOWN_PER_KIND = 5;

  private ReportText() {}

  static String of(AuditReport report) {
    StringBuilder out = new StringBuilder();
    out.append("lake ").append(report.lake());
    if (report.lakeId() != null) {
      out.append(" (id ").append(report.lakeId()).append(')');
    }
    if (report.connector() != null) {
      out.append(", connector ").append(report.connector());
    }
    if (report.group() != null) {
      out.append(", group ").append(report.group());
    }
    out.append('\n');
    int width = report.partitions().stream().mapToInt(tp -> tp.name().length()).max().orElse(0);
    for (TpReport tp : report.partitions()) {
      out.append(String.format("%-" + width + "s  %-7s  ", tp.name(), tp.status().json()));
      out.append(describe(tp)).append('\n');
      findings(out, tp.findings());
    }
    if (!report.findings().isEmpty()) {
      out.append("the lake, and files of no partition:\n");
      findings(out, report.findings());
    }
    AuditReport.Summary summary = report.summary();
    out.append(
        String.format(
            "%d partition(s): %d clean, %d with warnings, %d with problems%s%n",
            summary.partitions(),
            summary.clean(),
            summary.warning(),
            summary.problem(),
            summary.findings().isEmpty()
                ? ""
                : "; "
                    + summary.findings().entrySet().stream()
                        .map(e -> e.getValue() + " " + e.getKey())
                        .collect(Collectors.joining(", "))));
    out.append("result: ")
        .append(report.status().json())
        .append(" (exit ")
        .append(report.exitCode())
        .append(")\n");
    return out.toString();
  }

  private static String describe(TpReport tp) {
    StringBuilder line = new StringBuilder(tp.source().equals("sync") ? "sync " : "lake ");
    if (tp.generations().isEmpty()) {
      return line.append("log not read").toString();
    }
    line.append(tp.generations().stream().map(ReportText::range).collect(Collectors.joining(", ")));
    if (tp.kafka() != null) {
      TpReport.Kafka kafka = tp.kafka();
      line.append("; kafka ").append(kafka.logStart()).append("..").append(kafka.end());
      if (kafka.stableEnd() < kafka.end()) {
        line.append(" (stable ").append(kafka.stableEnd()).append(')');
      }
      line.append(", lag ").append(kafka.lag());
    }
    if (tp.groupOffset() != null) {
      line.append("; group ").append(tp.groupOffset());
    }
    line.append("; ").append(tp.liveFiles()).append(" file(s)");
    if (tp.merges() > 0) {
      line.append(", ").append(tp.merges()).append(" merge(s)");
    }
    if (tp.retiredFiles() > 0) {
      line.append(", ").append(tp.retiredFiles()).append(" retired (deleted after their grace)");
    }
    if (tp.holesWithoutRecords() > 0) {
      line.append("; ")
          .append(tp.holesWithoutRecords())
          .append(" hole(s) without records (transaction markers, aborted or compacted records)");
    }
    return line.toString();
  }

  private static String range(TpReport.Range range) {
    String prefix = range.generation() == 0 ? "" : "g" + range.generation() + " ";
    if (range.units() == 0) {
      return prefix + "no unit";
    }
    return prefix + range.start() + ".." + range.end() + " (" + range.units() + " unit(s))";
  }

  private static void findings(StringBuilder out, List<Finding> findings) {
    Map<Finding.Kind, Integer> shown = new HashMap<>();
    Map<Finding.Kind, Integer> hidden = new HashMap<>();
    for (Finding finding : findings) {
      int count = shown.merge(finding.kind(), 1, Integer::sum);
      if (count > SHOWN_PER_KIND) {
        hidden.merge(finding.kind(), 1, Integer::sum);
        continue;
      }
      out.append("  ").append(finding.kind().json()).append(": ");
      if (finding.file() != null) {
        out.append(finding.file()).append(": ");
      }
      out.append(finding.message()).append('\n');
    }
    hidden.forEach(
        (kind, count) ->
            out.append("  ... and ")
                .append(count)
                .append(" more ")
                .append(kind.json())
                .append(" (--output json lists them all)\n"));
  }
}
