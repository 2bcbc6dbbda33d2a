package io.skippr.connect.cli.audit;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The whole audit: one report per TP, findings that belong to no TP, and a summary.
 *
 * @param connector the connector audited, null when none was named
 * @param group the consumer group whose offsets were compared, null when none
 * @param lake where the lake lives
 * @param lakeId the lake's identity, null when it has none
 * @param findings findings of no TP (files named for no unit)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record AuditReport(
    String connector,
    String group,
    String lake,
    String lakeId,
    Status status,
    int exitCode,
    Summary summary,
    List<TpReport> partitions,
    List<Finding> findings) {

  /**
   * Counts.
   *
   * @param findings how many findings of each kind, over every TP
   */
  record Summary(
      int partitions, int clean, int warning, int problem, Map<String, Integer> findings) {}

  static AuditReport of(
      String connector,
      String group,
      String lake,
      String lakeId,
      List<TpReport> partitions,
      List<Finding> findings) {
    Status status = Status.of(findings);
    Map<String, Integer> counts = new TreeMap<>();
    int[] byStatus = new int[Status.values().length];
    for (TpReport tp : partitions) {
      status = status.worse(tp.status());
      byStatus[tp.status().ordinal()]++;
      tp.findings().forEach(f -> counts.merge(f.kind().json(), 1, Integer::sum));
    }
    findings.forEach(f -> counts.merge(f.kind().json(), 1, Integer::sum));
    Summary summary =
        new Summary(
            partitions.size(),
            byStatus[Status.CLEAN.ordinal()],
            byStatus[Status.WARNING.ordinal()],
            byStatus[Status.PROBLEM.ordinal()],
            counts);
    return new AuditReport(
        connector,
        group,
        lake,
        lakeId,
        status,
        status == Status.PROBLEM ? 1 : 0,
        summary,
        List.copyOf(partitions),
        List.copyOf(findings));
  }
}
