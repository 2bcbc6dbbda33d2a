package io.skippr.connect.lake.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Compaction ids are spelled as docs/lake-format.md says, and read back from file names. */
class CompactionIdTest {

  @Test
  void aUnitOfGenerationZeroKeepsTheOriginalFormat() {
    assertThat(CompactionId.unit("orders.v1", 3, 0, 10, 19))
        .hasToString("orders.v1+3+00000000000000000010+00000000000000000019");
  }

  @Test
  void laterGenerationsAndMergesAreSpelledOut() {
    assertThat(CompactionId.unit("t", 0, 2, 5, 9))
        .hasToString("t+0+g2+00000000000000000005+00000000000000000009");
    assertThat(CompactionId.merge("t", 0, 0, 0, 99, "0123456789ab"))
        .hasToString("t+0+00000000000000000000+00000000000000000099+m0123456789ab");
  }

  @Test
  void idsAreReadBackFieldByField() {
    assertThat(CompactionId.parse("sync~src+7+g3+00000000000000000001+00000000000000000002"))
        .contains(new CompactionId("sync~src", 7, 3, 1, 2, null));
    assertThat(CompactionId.parse("t+0+00000000000000000000+00000000000000000099+mabc"))
        .contains(new CompactionId("t", 0, 0, 0, 99, "abc"));
    assertThat(CompactionId.parse("t+0+00000000000000000000+00000000000000000099+mabc").get())
        .matches(CompactionId::isMerge);
  }

  @Test
  void namesNoUnitWritesAreNotIds() {
    assertThat(CompactionId.parse("t+0+5")).isEmpty();
    assertThat(CompactionId.parse("t+x+1+2")).isEmpty();
    assertThat(CompactionId.parse("part-00000")).isEmpty();
    assertThat(CompactionId.parse("t+0+1+2+mXYZ")).isEmpty();
  }

  @Test
  void aFileNameSaysWhichPartitionWroteIt() {
    String key =
        "orders/region=eu/orders+4+00000000000000000000+00000000000000000009.snappy.parquet";
    assertThat(CompactionId.writerOf(key)).contains(new TopicPartition("orders", 4));
    assertThat(CompactionId.namedFor(key, "orders", 4)).isTrue();
    assertThat(CompactionId.namedFor(key, "orders", 40)).isFalse();
    assertThat(CompactionId.writerOf("t/x/sync~orders+12+g1+00+09.snappy.parquet"))
        .contains(new TopicPartition("sync~orders", 12));
    assertThat(CompactionId.writerOf("t/x/a.b-c+0+00+09.parquet"))
        .contains(new TopicPartition("a.b-c", 0));
    assertThat(CompactionId.writerOf("t/x/t+x+1.parquet")).isEmpty();
    assertThat(CompactionId.writerOf("orders/_SUCCESS")).isEqualTo(Optional.empty());
    assertThat(CompactionId.writerOf("orders/+4+x.parquet")).isEmpty();
    assertThat(CompactionId.writerOf("orders/o+9999999999+x.parquet")).isEmpty();
  }
}
