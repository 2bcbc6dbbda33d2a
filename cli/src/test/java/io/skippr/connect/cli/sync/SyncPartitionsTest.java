package io.skippr.connect.cli.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyncPartitionsTest {
  @TempDir Path lake;

  private SyncPartitions partitions() throws Exception {
    return new SyncPartitions(new LocalLakeStorage(lake), "orders").load();
  }

  @Test
  void aSourcePartitionKeepsItsNumberAcrossRunsWhateverOrderPartitionsComeIn() throws Exception {
    SyncPartitions first = partitions();
    assertThat(first.numberOf(Map.of("file", "a"))).isZero();
    assertThat(first.numberOf(Map.of("file", "b"))).isEqualTo(1);
    assertThat(first.numberOf(Map.of("file", "a"))).isZero();

    SyncPartitions next = partitions();
    assertThat(next.numberOf(Map.of("file", "b"))).isEqualTo(1);
    assertThat(next.numberOf(Map.of("file", "c"))).isEqualTo(2);
    assertThat(next.all()).containsOnlyKeys(0, 1, 2);
  }

  @Test
  void numbersAreOneValueWhateverTheNumberType() throws Exception {
    SyncPartitions partitions = partitions();
    int n = partitions.numberOf(Map.of("shard", 7, "db", "x"));
    assertThat(partitions().numberOf(Map.of("db", "x", "shard", 7L))).isEqualTo(n);
  }

  @Test
  void twoRunsThatNumberAtOnceAgree() throws Exception {
    SyncPartitions one = partitions();
    SyncPartitions other = partitions();
    assertThat(one.numberOf(Map.of("file", "a"))).isZero();
    assertThat(other.numberOf(Map.of("file", "b"))).as("0 is taken: the next").isEqualTo(1);
    assertThat(other.numberOf(Map.of("file", "a"))).isZero();
  }

  @Test
  void anImportedPartitionGetsANewNumberAndTheOldOneIsNoLongerItsOwn() throws Exception {
    SyncPartitions partitions = partitions();
    partitions.numberOf(Map.of("file", "a"));
    partitions.numberOf(Map.of("file", "b"));
    assertThat(partitions.renumber(Map.of("file", "a"))).isEqualTo(2);

    SyncPartitions reread = partitions();
    assertThat(reread.find(Map.of("file", "a"))).isEqualTo(2);
    assertThat(reread.all()).containsOnlyKeys(1, 2);
    assertThat(reread.numberOf(Map.of("file", "c"))).isEqualTo(3);
  }
}
