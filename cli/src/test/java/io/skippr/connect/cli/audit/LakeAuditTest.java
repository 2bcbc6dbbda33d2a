package io.skippr.connect.cli.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class LakeAuditTest {
  private static final String FILE_0 = "t/t+0+00000000000000000000+00000000000000000009.parquet";
  private static final String FILE_1 = "t/t+1+00000000000000000000+00000000000000000009.parquet";

  private final FakeKafka kafka = new FakeKafka().records("t", 0, 0, 9).records("t", 1, 0, 9);

  @Test
  void aLakeThatAgreesWithKafkaAndStorageIsCleanAndExitsZero() {
    AuditReport report = audit(Set.of(FILE_0, FILE_1), Map.of(tp(0), 10L, tp(1), 10L), 10);

    assertThat(report.exitCode()).isZero();
    assertThat(report.status()).isEqualTo(Status.CLEAN);
    assertThat(report.partitions()).extracting(TpReport::status).containsOnly(Status.CLEAN);
    assertThat(report.summary()).isEqualTo(new AuditReport.Summary(3, 3, 0, 0, Map.of()));
    // t-2 has no log: Kafka has no record of it either.
    assertThat(report.partitions()).extracting(TpReport::name).containsExactly("t-0", "t-1", "t-2");
  }

  @Test
  void lagAloneIsAWarningAndExitsZero() {
    kafka.records("t", 0, 10, 14);
    AuditReport report = audit(Set.of(FILE_0, FILE_1), Map.of(tp(0), 10L), 15);

    assertThat(report.exitCode()).isZero();
    assertThat(report.status()).isEqualTo(Status.WARNING);
    assertThat(report.summary().findings()).isEqualTo(Map.of("lag", 1));
  }

  @Test
  void aMissingFileIsAProblemOfItsPartitionAndExitsOne() {
    AuditReport report = audit(Set.of(FILE_0), Map.of(), 10);

    assertThat(report.exitCode()).isEqualTo(1);
    assertThat(report.partitions().get(1).status()).isEqualTo(Status.PROBLEM);
    assertThat(report.partitions().get(1).findings())
        .extracting(Finding::kind, Finding::file)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(Finding.Kind.MISSING_FILE, FILE_1));
    assertThat(report.summary().problem()).isEqualTo(1);
  }

  @Test
  void theJsonIsOneDocumentWithSnakeCaseKeysAndLowercaseValues() throws Exception {
    AuditReport report = audit(Set.of(FILE_0), Map.of(tp(0), 10L), 10);

    JsonNode json = new ObjectMapper().readTree(ReportJson.of(report));

    assertThat(json.get("connector").asText()).isEqualTo("c");
    assertThat(json.get("group").asText()).isEqualTo("connect-c");
    assertThat(json.get("lake_id").asText()).isEqualTo("lake-1");
    assertThat(json.get("status").asText()).isEqualTo("problem");
    assertThat(json.get("exit_code").asInt()).isEqualTo(1);
    assertThat(json.get("summary").get("findings").get("missing_file").asInt()).isEqualTo(1);
    JsonNode first = json.get("partitions").get(0);
    assertThat(first.get("topic").asText()).isEqualTo("t");
    assertThat(first.get("source").asText()).isEqualTo("kafka");
    assertThat(first.get("status").asText()).isEqualTo("clean");
    assertThat(first.get("lake_next").asLong()).isEqualTo(10);
    assertThat(first.get("group_offset").asLong()).isEqualTo(10);
    assertThat(first.get("kafka").get("log_start").asLong()).isZero();
    assertThat(first.get("kafka").get("stable_end").asLong()).isEqualTo(10);
    assertThat(first.get("generations").get(0).get("units").asInt()).isEqualTo(1);
    JsonNode missing = json.get("partitions").get(1).get("findings").get(0);
    assertThat(missing.get("kind").asText()).isEqualTo("missing_file");
    assertThat(missing.get("severity").asText()).isEqualTo("problem");
    assertThat(missing.get("file").asText()).isEqualTo(FILE_1);
    assertThat(missing.has("start")).as("null fields are left out").isFalse();
    assertThat(json.get("partitions").get(2).has("group_offset")).isFalse();
  }

  @Test
  void theTextHasALinePerPartitionItsFindingsAndTheResult() {
    AuditReport report = audit(Set.of(FILE_0), Map.of(tp(0), 10L), 10);

    String text = ReportText.of(report);

    assertThat(text)
        .startsWith("lake /lake/ (id lake-1), connector c, group connect-c\n")
        .contains("t-0  clean    lake 0..9 (1 unit(s)); kafka 0..10, lag 0; group 10; 1 file(s)\n")
        .contains("t-1  problem  lake 0..9 (1 unit(s))")
        .contains(
            "  missing_file: "
                + FILE_1
                + ": the log lists this file as live, but storage does not have it\n")
        .contains("t-2  clean    lake no unit; kafka 0..0, lag 0; 0 file(s)\n")
        .contains("3 partition(s): 2 clean, 0 with warnings, 1 with problems; 1 missing_file\n")
        .endsWith("result: problem (exit 1)\n");
  }

  @Test
  void theTextShowsAFewFindingsOfAKindAndCountsTheRest() {
    List<String> orphans =
        List.of("a", "b", "c", "d", "e", "f", "g").stream()
            .map(s -> "t/" + s + "/t+0+00000000000000000000+00000000000000000003.parquet")
            .toList();
    Set<String> stored = new java.util.HashSet<>(orphans);
    stored.add(FILE_0);
    stored.add(FILE_1);

    String text = ReportText.of(audit(stored, Map.of(), 10));

    assertThat(text.lines().filter(l -> l.startsWith("  orphan: ")).count())
        .isEqualTo(ReportText.SHOWN_PER_KIND);
    assertThat(text).contains("  ... and 2 more orphan (--output json lists them all)\n");
    assertThat(text).endsWith("result: warning (exit 0)\n");
  }

  private AuditReport audit(Set<String> stored, Map<TopicPartition, Long> group, long end0) {
    TpLake t0 = Lakes.withFiles(Lakes.log("t", 0, 0, 9), Set.of(FILE_0));
    TpLake t1 = Lakes.withFiles(Lakes.log("t", 1, 0, 9), Set.of(FILE_1));
    return LakeAudit.audit(
        new LakeAudit.Inputs(
            "c",
            "connect-c",
            "/lake/",
            "lake-1",
            List.of(t0, t1),
            Map.of(
                tp(0), new KafkaTp(0, end0, end0),
                tp(1), new KafkaTp(0, 10, 10),
                tp(2), new KafkaTp(0, 0, 0)),
            group,
            stored,
            LakeReader.Reread.NONE,
            LakeAudit.Damage.NONE),
        kafka);
  }

  private static TopicPartition tp(int partition) {
    return new TopicPartition("t", partition);
  }
}
