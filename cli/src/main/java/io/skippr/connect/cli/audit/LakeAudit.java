package io.skippr.connect.cli.audit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * The audit itself, on what was read: every TP of the lake's logs, of Kafka's topics and of the
 * group, compared by {@link RangeAudit} and {@link FileAudit}. Reads nothing but through the probe.
 */
final class LakeAudit {
  /**
   * What was read.
   *
   * @param logs every TP log of the lake, read whole
   * @param kafka what Kafka holds of each partition of the topics concerned; empty without Kafka
   * @param groupOffsets the group's committed offsets
   * @param stored the keys storage has under the tables the logs know
   * @param reread what a re-read of the logs after the listing says about files the first read did
   *     not account for
   * @param damage what the sink would refuse in the lake
   */
  record Inputs(
      String connector,
      String group,
      String lake,
      String lakeId,
      List<TpLake> logs,
      Map<TopicPartition, KafkaTp> kafka,
      Map<TopicPartition, Long> groupOffsets,
      Set<String> stored,
      LakeReader.Reread reread,
      Damage damage) {}

  /**
   * What the sink would refuse in the lake, beside what the comparison finds.
   *
   * @param lake findings of the lake as a whole: its identity, stored table schemas
   * @param byTp findings of a TP: a log it cannot read or that names another lake, a file that
   *     differs from its commit
   * @param unreadable TPs whose log could not be read: they have no {@link TpLake}
   */
  record Damage(
      List<Finding> lake, Map<TopicPartition, List<Finding>> byTp, Set<TopicPartition> unreadable) {
    static final Damage NONE = new Damage(List.of(), Map.of(), Set.of());

    List<Finding> of(TopicPartition tp) {
      return byTp.getOrDefault(tp, List.of());
    }
  }

  private static final Comparator<TopicPartition> ORDER =
      Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

  private LakeAudit() {}

  static AuditReport audit(Inputs in, RecordProbe probe) {
    Map<TopicPartition, TpLake> tps = new TreeMap<>(ORDER);
    in.logs().forEach(log -> tps.put(new TopicPartition(log.topic(), log.partition()), log));
    for (TopicPartition tp : in.kafka().keySet()) {
      tps.putIfAbsent(tp, TpLake.absent(tp.topic(), tp.partition()));
    }
    for (TopicPartition tp : in.groupOffsets().keySet()) {
      tps.putIfAbsent(tp, TpLake.absent(tp.topic(), tp.partition()));
    }
    for (TopicPartition tp : in.damage().byTp().keySet()) {
      tps.putIfAbsent(tp, TpLake.absent(tp.topic(), tp.partition()));
    }
    FileAudit.Result files =
        FileAudit.audit(in.logs(), in.stored(), in.reread(), in.damage().unreadable());
    RangeAudit ranges = new RangeAudit(probe);
    List<TpReport> reports = new ArrayList<>();
    for (Map.Entry<TopicPartition, TpLake> entry : tps.entrySet()) {
      TopicPartition tp = entry.getKey();
      TpLake lake = entry.getValue();
      if (in.damage().unreadable().contains(tp)) {
        reports.add(unread(tp, in.damage().of(tp), in.groupOffsets().get(tp)));
        continue;
      }
      KafkaTp kafka = lake.isSync() ? null : in.kafka().get(tp);
      RangeAudit.Result result = ranges.audit(lake, kafka, in.groupOffsets().get(tp));
      List<Finding> findings = new ArrayList<>(result.findings());
      findings.addAll(MaintenanceAudit.findings(lake));
      findings.addAll(files.of(tp));
      findings.addAll(in.damage().of(tp));
      reports.add(
          new TpReport(
              tp.topic(),
              tp.partition(),
              lake.isSync() ? "sync" : "kafka",
              Status.of(findings),
              result.ranges(),
              lake.resume(),
              result.kafka(),
              in.groupOffsets().get(tp),
              lake.liveFiles().size(),
              lake.maintenance().retired().size(),
              lake.maintenance().merges(),
              result.holesWithoutRecords(),
              findings));
    }
    List<Finding> unattributed = new ArrayList<>(in.damage().lake());
    unattributed.addAll(files.unattributed());
    for (Map.Entry<TopicPartition, List<Finding>> entry : files.byTp().entrySet()) {
      if (!tps.containsKey(entry.getKey())) {
        unattributed.addAll(entry.getValue()); // named for a TP that has no log here
      }
    }
    return AuditReport.of(
        in.connector(), in.group(), in.lake(), in.lakeId(), reports, unattributed);
  }

  /** The report of a TP whose log could not be read: nothing to compare. */
  private static TpReport unread(TopicPartition tp, List<Finding> findings, Long group) {
    boolean sync = tp.topic().startsWith(TpLake.SYNC_PREFIX);
    return new TpReport(
        tp.topic(),
        tp.partition(),
        sync ? "sync" : "kafka",
        Status.of(findings),
        List.of(),
        null,
        null,
        group,
        0,
        0,
        0,
        0,
        findings);
  }
}
