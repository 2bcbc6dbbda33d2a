package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.format.LakeFileWriter;
import io.skippr.connect.lake.storage.S3Config;
import io.skippr.connect.lake.storage.S3LakeStorage;
import io.skippr.connect.lake.storage.S3Lakes;
import io.skippr.connect.lake.storage.S3Location;
import io.skippr.connect.testkit.HttpFaultProxy;
import io.skippr.connect.testkit.HttpFaultProxy.Fault;
import io.skippr.connect.testkit.S3MockServer;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The lake writer on S3 behind a network that fails requests the ways S3 and networks do (503
 * before, 500 after the request took effect, connection resets, answers that never come). Retries
 * absorb them: the writer never crashes, and the lake holds every offset exactly once. A failure
 * that outlasts the retries fails the task without reporting the unit's offsets, and an upload a
 * crash left behind is aborted when the partition is opened again.
 */
@ExtendWith(S3MockServer.Shared.class)
class S3NetworkFaultsIT {
  private static final int PARTITIONS = 2;
  private static final long RECORDS = 300;
  private static final String BUCKET = "lake-faults";

  private final S3MockServer server;

  S3NetworkFaultsIT(S3MockServer server) {
    this.server = server;
  }

  @Test
  void retriesAbsorbEveryKindOfFaultWithNoLossAndNoDuplicate() throws Exception {
    S3Location location = S3Lakes.fresh(server, BUCKET);
    LakeHarness harness = new LakeHarness(PARTITIONS, RECORDS);
    try (HttpFaultProxy proxy =
            HttpFaultProxy.start(server.endpoint(), 0.2, 17, Duration.ofMillis(1500));
        S3LakeStorage flaky =
            S3Lakes.open(proxy.endpoint(), location, Duration.ofMillis(700), 12)) {
      harness.start(flaky);
      while (harness.deliver(7)) {
        harness.commitOffsets();
      }
      harness.flushBySchedule();
      harness.commitOffsets();
      for (Fault fault : Fault.values()) {
        assertThat(proxy.injected(fault)).as(fault.name()).isPositive();
      }
      System.out.printf(
          "S3 through faults: %d requests, %d faults injected, writer generations %d%n",
          proxy.requests(), proxy.injected(), harness.generations);
    }
    assertThat(harness.generations).as("no crash, no restart").isEqualTo(1);
    assertCommittedExactlyOnce(harness, location);
  }

  @Test
  void aFailureOutlastingTheRetriesFailsTheTaskAndReportsNoOffsetsForTheUnit() throws Exception {
    S3Location location = S3Lakes.fresh(server, BUCKET);
    LakeHarness harness = new LakeHarness(PARTITIONS, RECORDS);
    try (HttpFaultProxy proxy = HttpFaultProxy.start(server.endpoint(), 0, 3, Duration.ZERO);
        S3LakeStorage flaky = S3Lakes.open(proxy.endpoint(), location, Duration.ofSeconds(5), 3)) {
      harness.start(flaky);
      proxy
          .faults(Fault.UNAVAILABLE_BEFORE)
          .only(request -> request.startsWith("PUT ") && request.contains("/lake_orders/"))
          .rate(1.0);
      assertThatThrownBy(
              () -> {
                while (harness.deliver(7)) {
                  harness.commitOffsets();
                }
              })
          .isInstanceOf(ConnectException.class)
          .hasMessageContaining("Lake storage failed");
      harness.commitOffsets();
      for (TopicPartition tp : harness.tps()) {
        assertThat(harness.committed.getOrDefault(tp, 0L)).as("offset of " + tp).isZero();
      }
      assertThat(proxy.injected()).isEqualTo(3);
    }
    try (S3LakeStorage healthy = S3Lakes.open(server.endpoint(), location)) {
      harness.start(healthy);
      while (harness.deliver(7)) {
        harness.commitOffsets();
      }
      harness.flushBySchedule();
      harness.commitOffsets();
    }
    assertCommittedExactlyOnce(harness, location);
  }

  @Test
  void anUploadACrashLeftBehindIsAbortedWhenThePartitionIsOpenedAgain() throws Exception {
    S3Location location = S3Lakes.fresh(server, BUCKET);
    String prefix = location.prefix() + "/";
    LakeHarness harness = new LakeHarness(1, 40);
    harness.fileWriter = new PartSizedFileWriter();
    harness.values = (partition, offset) -> WriterDoubles.value(partition, offset, "b0", 100);
    try (HttpFaultProxy proxy = HttpFaultProxy.start(server.endpoint(), 0, 3, Duration.ZERO);
        S3LakeStorage flaky = S3Lakes.open(proxy.endpoint(), location, Duration.ofSeconds(5), 2)) {
      harness.start(flaky);
      // Completing and aborting the upload both fail: the upload stays, as after a kill.
      proxy
          .faults(Fault.UNAVAILABLE_BEFORE)
          .only(request -> !request.startsWith("PUT ") && request.contains("uploadId="))
          .rate(1.0);
      assertThatThrownBy(() -> harness.deliver(40)).isInstanceOf(ConnectException.class);
      assertThat(proxy.injected()).isEqualTo(4);
    }
    assertThat(server.multipartUploads(BUCKET, prefix)).hasSize(1);

    try (S3LakeStorage healthy = S3Lakes.open(server.endpoint(), location)) {
      harness.start(healthy);
      assertThat(server.multipartUploads(BUCKET, prefix)).as("aborted on open").isEmpty();
      while (harness.deliver(7)) {
        harness.commitOffsets();
      }
      harness.flushBySchedule();
      harness.commitOffsets();
    }
    assertCommittedExactlyOnce(harness, location, 40);
    assertThat(server.multipartUploads(BUCKET, prefix)).isEmpty();
  }

  private void assertCommittedExactlyOnce(LakeHarness harness, S3Location location)
      throws Exception {
    assertCommittedExactlyOnce(harness, location, RECORDS);
  }

  private void assertCommittedExactlyOnce(LakeHarness harness, S3Location location, long records)
      throws Exception {
    try (S3LakeStorage clean = S3Lakes.open(server.endpoint(), location)) {
      new LakeInspector(clean).assertExactlyOnce(LakeHarness.TABLE, harness.tps(), records);
    }
    for (TopicPartition tp : harness.tps()) {
      assertThat(harness.committed.get(tp)).as("Kafka offset of " + tp).isEqualTo(records);
    }
  }

  /** The offsets, then blank lines past one part: each file is uploaded in two parts. */
  private static final class PartSizedFileWriter implements LakeFileWriter {
    @Override
    public void write(Schema fileSchema, List<Struct> rows, OutputStream out) throws IOException {
      new WriterDoubles.OffsetsFileWriter().write(fileSchema, rows, out);
      byte[] blank = new byte[S3Config.MIN_PART_SIZE];
      Arrays.fill(blank, (byte) '\n');
      out.write(blank);
    }

    @Override
    public String extension() {
      return "txt";
    }
  }
}
