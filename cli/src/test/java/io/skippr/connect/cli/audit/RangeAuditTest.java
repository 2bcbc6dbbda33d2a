package io.skippr.connect.cli.audit;

import static io.skippr.connect.cli.audit.Lakes.log;
import static io.skippr.connect.cli.audit.Lakes.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.skippr.connect.cli.audit.Finding.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

class RangeAuditTest {
  private final FakeKafka kafka = new FakeKafka();
  private final RangeAudit audit = new RangeAudit(kafka);

  @Test
  void contiguousUnitsThatReachKafkasEndWithTheGroupThereAreClean() {
    kafka.records("t", 0, 0, 19);
    RangeAudit.Result result = audit.audit(log("t", 0, 0, 9, 10, 19), new KafkaTp(0, 20, 20), 20L);

    assertThat(result.findings()).isEmpty();
    assertThat(result.kafka()).isEqualTo(new TpReport.Kafka(0, 20, 20, 0));
    assertThat(result.ranges()).containsExactly(new TpReport.Range(0, 0L, 19L, 2, null));
    assertThat(kafka.probes).isEmpty();
  }

  @Test
  void holesOfTransactionMarkersAreFetchedAndAccepted() {
    // Transactions of 10 records: a commit marker at 10 and at 21.
    kafka.records("t", 0, 0, 9).records("t", 0, 11, 20);
    RangeAudit.Result result = audit.audit(log("t", 0, 0, 9, 11, 20), new KafkaTp(0, 22, 22), 22L);

    assertThat(result.findings()).isEmpty();
    assertThat(result.holesWithoutRecords()).isEqualTo(1);
    assertThat(result.kafka().lag()).isZero();
    assertThat(kafka.probes).containsExactly("t-0:10..10", "t-0:21..21");
  }

  @Test
  void aHoleWithRecordsIsAGapFromItsFirstRecord() {
    kafka.records("t", 0, 0, 29);
    RangeAudit.Result result = audit.audit(log("t", 0, 0, 9, 20, 29), new KafkaTp(0, 30, 30), 30L);

    assertThat(result.findings())
        .extracting(Finding::kind, Finding::start, Finding::end, Finding::firstRecord)
        .containsExactly(tuple(Kind.GAP, 10L, 19L, 10L));
    assertThat(result.findings().get(0).message())
        .isEqualTo(
            "offsets 10..19 in generation 0 are in no unit, but Kafka holds records there (the"
                + " first at 10)");
  }

  @Test
  void unitsThatShareOffsetsOverlap() {
    kafka.records("t", 0, 0, 14);
    RangeAudit.Result result = audit.audit(log("t", 0, 0, 9, 5, 14), new KafkaTp(0, 15, 15), 15L);

    assertThat(result.findings())
        .extracting(Finding::kind, Finding::start, Finding::end)
        .containsExactly(tuple(Kind.OVERLAP, 5L, 9L));
    assertThat(result.findings().get(0).message())
        .contains("t+0+00000000000000000000+00000000000000000009")
        .contains("t+0+00000000000000000005+00000000000000000014")
        .contains("both hold offsets 5..9");
  }

  @Test
  void aUnitCommittedTwiceUnderOneIdIsNotAnOverlap() {
    TpLake lake =
        Lakes.withGenerations("t", 0, List.of(TpLake.Generation.first(units("t", 0, 0, 9, 0, 9))));
    kafka.records("t", 0, 0, 9);

    assertThat(audit.audit(lake, new KafkaTp(0, 10, 10), 10L).findings()).isEmpty();
  }

  @Test
  void recordsThatExpiredBeforeTheyLandedAreReportedApartFromLag() {
    kafka.records("t", 0, 15, 29);
    RangeAudit.Result result = audit.audit(log("t", 0, 0, 9), new KafkaTp(15, 30, 30), 10L);

    assertThat(result.findings())
        .extracting(Finding::kind, Finding::start, Finding::end)
        .containsExactly(tuple(Kind.EXPIRED, 10L, 14L), tuple(Kind.LAG, 15L, 29L));
    assertThat(result.kafka().lag()).isEqualTo(15);
  }

  @Test
  void aGroupOffsetPastRecordsTheLakeLacksIsALossRisk() {
    kafka.records("t", 0, 0, 19);
    RangeAudit.Result result = audit.audit(log("t", 0, 0, 9), new KafkaTp(0, 20, 20), 15L);

    assertThat(result.findings())
        .extracting(Finding::kind, Finding::start, Finding::end)
        .containsExactly(tuple(Kind.LAG, 10L, 19L), tuple(Kind.GROUP_AHEAD, 10L, 14L));
    assertThat(Status.of(result.findings())).isEqualTo(Status.PROBLEM);
  }

  @Test
  void aGroupOffsetPastOnlyATransactionMarkerIsNoRisk() {
    kafka.records("t", 0, 0, 9);
    RangeAudit.Result result = audit.audit(log("t", 0, 0, 9), new KafkaTp(0, 11, 11), 11L);

    assertThat(result.findings()).isEmpty();
  }

  @Test
  void recordsOfAnOpenTransactionAreNeitherLagNorProbed() {
    kafka.records("t", 0, 0, 9).records("t", 0, 11, 14);
    RangeAudit.Result result = audit.audit(log("t", 0, 0, 9), new KafkaTp(0, 20, 10), 10L);

    assertThat(result.findings()).isEmpty();
    assertThat(kafka.probes).isEmpty();
  }

  @Test
  void aGenerationThatSkippedRecordsLeavesAGapNamingItsReason() {
    kafka.records("t", 0, 0, 199);
    TpLake lake =
        Lakes.withGenerations(
            "t",
            0,
            List.of(
                TpLake.Generation.first(units("t", 0, 0, 49, 50, 99)),
                new TpLake.Generation(
                    1,
                    140,
                    99,
                    "the connector's offset was set to 140 through the REST API",
                    List.of())));

    RangeAudit.Result result = audit.audit(lake, new KafkaTp(0, 200, 200), 140L);

    assertThat(result.findings())
        .extracting(Finding::kind, Finding::start, Finding::end)
        .containsExactly(
            tuple(Kind.GENERATION, null, null),
            tuple(Kind.GAP, 100L, 139L),
            tuple(Kind.LAG, 140L, 199L));
    assertThat(result.findings().get(1).message())
        .contains("between generation 0 and generation 1")
        .contains("set to 140 through the REST API");
    assertThat(result.ranges())
        .containsExactly(
            new TpReport.Range(0, 0L, 99L, 2, null),
            new TpReport.Range(
                1, null, null, 0, "the connector's offset was set to 140 through the REST API"));
  }

  @Test
  void aGenerationOfARecreatedTopicRestartsTheComparison() {
    kafka.records("t", 0, 0, 499);
    TpLake lake =
        Lakes.withGenerations(
            "t",
            0,
            List.of(
                TpLake.Generation.first(units("t", 0, 0, 499, 600, 999)),
                new TpLake.Generation(
                    1, 0, 999, "the topic was recreated", units("t", 0, 0, 499))));

    RangeAudit.Result result = audit.audit(lake, new KafkaTp(0, 500, 500), 500L);

    // Offsets 500..599 of the old topic are not compared with the new topic's records.
    assertThat(result.findings()).extracting(Finding::kind).containsExactly(Kind.GENERATION);
    assertThat(result.findings().get(0).message())
        .contains("generation 1 starts at offset 0")
        .contains("the topic was recreated");
  }

  @Test
  void recordsBelowTheFirstUnitThatKafkaStillHoldsAreAGap() {
    kafka.records("t", 0, 0, 99);
    RangeAudit.Result result = audit.audit(log("t", 0, 40, 99), new KafkaTp(20, 100, 100), 100L);

    assertThat(result.findings())
        .extracting(Finding::kind, Finding::start, Finding::end)
        .containsExactly(tuple(Kind.EXPIRED, 0L, 19L), tuple(Kind.GAP, 20L, 39L));
  }

  @Test
  void aLakeResumingPastKafkasEndMeansTheTopicWasRecreated() {
    kafka.records("t", 0, 0, 49);
    RangeAudit.Result result = audit.audit(log("t", 0, 0, 99), new KafkaTp(0, 50, 50), null);

    assertThat(result.findings()).extracting(Finding::kind).containsExactly(Kind.KAFKA_BEHIND_LAKE);
  }

  @Test
  void aPartitionTheLakeHasNothingOfLagsFromKafkasLogStart() {
    kafka.records("t", 1, 5, 9);
    RangeAudit.Result result = audit.audit(TpLake.absent("t", 1), new KafkaTp(5, 10, 10), 8L);

    assertThat(result.findings())
        .extracting(Finding::kind, Finding::start, Finding::end)
        .containsExactly(tuple(Kind.LAG, 5L, 9L), tuple(Kind.GROUP_AHEAD, 5L, 7L));
    assertThat(result.kafka().lag()).isEqualTo(5);
  }

  @Test
  void syncLogsNeedNoKafkaAndEveryHoleIsAGap() {
    RangeAudit.Result result = audit.audit(log("sync~files", 0, 3, 9, 12, 20), null, null);

    assertThat(result.findings())
        .extracting(Finding::kind, Finding::start, Finding::end)
        .containsExactly(tuple(Kind.GAP, 0L, 2L), tuple(Kind.GAP, 10L, 11L));
    assertThat(result.kafka()).isNull();
    assertThat(kafka.probes).isEmpty();
  }

  @Test
  void aTopicKafkaLacksIsCheckedForOverlapsOnly() {
    RangeAudit.Result result = audit.audit(log("gone", 0, 0, 9, 20, 29, 25, 30), null, null);

    assertThat(result.findings())
        .extracting(Finding::kind)
        .containsExactly(Kind.OVERLAP, Kind.TOPIC_MISSING);
    assertThat(result.findings().get(1).message()).contains("1 hole(s)");
    assertThat(kafka.probes).isEmpty();
  }

  @Test
  void aPendingUnitIsAWarningAndTheLakeResumesAtItsStart() {
    kafka.records("t", 0, 0, 19);
    TpLake lake =
        Lakes.withPending(
            log("t", 0, 0, 9),
            new TpLake.Pending("t+0+00000000000000000010+00000000000000000019", 10, 19, List.of()));

    RangeAudit.Result result = audit.audit(lake, new KafkaTp(0, 20, 20), 10L);

    assertThat(result.findings())
        .extracting(Finding::kind, Finding::start, Finding::end)
        .containsExactly(tuple(Kind.PENDING, 10L, 19L), tuple(Kind.LAG, 10L, 19L));
    assertThat(Status.of(result.findings())).isEqualTo(Status.WARNING);
  }

  @Test
  void missingLogEntriesAreAProblem() {
    TpLake lake = log("sync~files", 0, 0, 9);
    TpLake broken =
        new TpLake(
            lake.topic(),
            0,
            lake.generations(),
            null,
            lake.liveFiles(),
            10L,
            List.of(3L, 4L),
            null,
            null);

    assertThat(audit.audit(broken, null, null).findings())
        .extracting(Finding::kind)
        .containsExactly(Kind.LOG_ENTRIES_MISSING);
  }
}
