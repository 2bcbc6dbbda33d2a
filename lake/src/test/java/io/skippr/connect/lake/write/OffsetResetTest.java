package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.log.LakeIdentity;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LogEntry;
import io.skippr.connect.lake.log.TpLog;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Offsets changed through the REST API are honoured by the lake, never silently overridden. */
class OffsetResetTest {
  private static final TopicPartition TP0 = new TopicPartition(LakeHarness.TOPIC, 0);
  private static final TopicPartition TP1 = new TopicPartition(LakeHarness.TOPIC, 1);

  @TempDir Path root;

  private Map<String, String> config(String behavior) {
    return Map.of(
        "name", "lake",
        "topics.dir", root.toString(),
        "flush.size", "10",
        "state.mirror", "off",
        "behavior.on.offset.discontinuity", behavior);
  }

  /** Lands 0..19 of partition 0 and leaves partition 1 unknown to the lake. */
  private LocalLakeStorage landed() {
    LocalLakeStorage storage = new LocalLakeStorage(root);
    LakeHarness h = new LakeHarness(1, 20);
    h.rotation = new RotationConfig(10, 0, -1, 1000, 1L << 30);
    h.start(storage);
    while (h.deliver(5)) {
      h.commitOffsets();
    }
    h.writer.stop();
    return storage;
  }

  private static Map<TopicPartition, Long> offsets(TopicPartition tp, Long offset) {
    Map<TopicPartition, Long> offsets = new HashMap<>();
    offsets.put(tp, offset);
    return offsets;
  }

  private TpLog log(TopicPartition tp) throws IOException {
    return TpLog.read(new LocalLakeStorage(root), new LakeLayout(), tp.topic(), tp.partition());
  }

  @Test
  void aMoveOfAPartitionTheLakeHoldsIsRefusedByDefaultAndChangesNothing() throws IOException {
    landed();
    long before = log(TP0).state().lastSeq();
    Map<TopicPartition, Long> change = offsets(TP0, 5L);
    change.put(TP1, 0L);
    assertThatThrownBy(() -> OffsetReset.apply(config("fail"), change))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("orders-0 to offset 5")
        .hasMessageContaining("committed offsets up to 19")
        .hasMessageContaining("behavior.on.offset.discontinuity=new_generation")
        .hasMessageNotContaining("orders-1");
    assertThat(log(TP0).state().lastSeq()).isEqualTo(before);
  }

  @Test
  void aPartitionNewToTheLakeOrAMoveToWhereItResumesIsTakenAsItIs() throws IOException {
    landed();
    OffsetReset.apply(config("fail"), offsets(TP1, 7L));
    OffsetReset.apply(config("fail"), offsets(TP0, 20L));
    assertThat(log(TP0).state().generation()).isZero();
  }

  @Test
  void aMoveStartsANewGenerationAtTheNewOffsetWhenConfigured() throws IOException {
    landed();
    OffsetReset.apply(config("new_generation"), offsets(TP0, 5L));
    assertThat(log(TP0).state().generation()).isEqualTo(1);
    assertThat(log(TP0).state().resumeOffset()).isEqualTo(OptionalLong.of(5));
    assertThat(log(TP0).state().liveFiles()).as("the old files stay").isNotEmpty();

    OffsetReset.apply(config("new_generation"), offsets(TP0, null));
    assertThat(log(TP0).state().generation()).isEqualTo(2);
    assertThat(log(TP0).state().resumeOffset()).as("the consumer decides").isEmpty();
  }

  @Test
  void aPendingUnitIsAbandonedWhenANewGenerationStarts() throws IOException {
    landed();
    TpLog log = log(TP0);
    log.claimEpoch(
        LakeIdentity.require(new LocalLakeStorage(root), new LakeLayout()), "crashed", 1);
    log.append(
        new LogEntry.Intent(
            "orders+0+00000000000000000020+00000000000000000029",
            20,
            29,
            log.epoch(),
            1,
            "cfg",
            List.of()));
    assertThat(log(TP0).state().pending()).isPresent();

    OffsetReset.apply(config("new_generation"), offsets(TP0, 0L));
    assertThat(log(TP0).state().pending()).isEmpty();
    assertThat(log(TP0).state().resumeOffset()).isEqualTo(OptionalLong.of(0));
  }
}
