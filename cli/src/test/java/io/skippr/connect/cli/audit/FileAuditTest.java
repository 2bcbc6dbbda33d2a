package io.skippr.connect.cli.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.skippr.connect.cli.audit.Finding.Kind;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class FileAuditTest {
  private static final String LIVE = "t/p=1/t+0+00000000000000000000+00000000000000000009.parquet";
  private static final String GONE = "t/p=2/t+0+00000000000000000000+00000000000000000009.parquet";
  private static final String PLANNED =
      "t/p=1/t+0+00000000000000000010+00000000000000000019.parquet";
  private static final String LATE = "t/p=1/t+0+00000000000000000020+00000000000000000029.parquet";
  private static final String ORPHAN =
      "t/p=1/t+0+00000000000000000000+00000000000000000004.parquet";
  private static final String FOREIGN = "t/p=1/notes.txt";
  private static final String OTHER_TP =
      "t/p=1/t+3+00000000000000000000+00000000000000000004.parquet";

  @Test
  void sortsStoredAndListedFilesIntoMissingInFlightAndOrphans() {
    TpLake lake =
        Lakes.withPending(
            Lakes.withFiles(Lakes.log("t", 0, 0, 9), Set.of(LIVE, GONE)),
            new TpLake.Pending("t+0+10", 10, 19, List.of(PLANNED)));

    FileAudit.Result result =
        FileAudit.audit(
            List.of(lake),
            Set.of(LIVE, PLANNED, LATE, ORPHAN, FOREIGN, OTHER_TP),
            new LakeReader.Reread(Set.of(LATE), Set.of()),
            Set.of());

    assertThat(result.of(new TopicPartition("t", 0)))
        .extracting(Finding::kind, Finding::file)
        .containsExactlyInAnyOrder(
            tuple(Kind.MISSING_FILE, GONE),
            tuple(Kind.IN_FLIGHT, PLANNED),
            tuple(Kind.IN_FLIGHT, LATE),
            tuple(Kind.ORPHAN, ORPHAN));
    assertThat(result.of(new TopicPartition("t", 3)))
        .extracting(Finding::kind, Finding::file)
        .containsExactly(tuple(Kind.ORPHAN, OTHER_TP));
    assertThat(result.unattributed())
        .extracting(Finding::kind, Finding::file)
        .containsExactly(tuple(Kind.ORPHAN, FOREIGN));
  }
}
