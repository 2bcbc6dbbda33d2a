package io.skippr.connect.lake.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.convert.HostileInput;
import io.skippr.connect.lake.convert.LakeRowConverter;
import io.skippr.connect.lake.format.ParquetFileWriter;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.TableSchemaLog;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import io.skippr.connect.testkit.DuckDbLake;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Hostile schemaless records through the lake writer's put, read back with DuckDB: put never
 * throws, each bad record goes to the errant-record reporter with its reason, every other record
 * lands exactly once, and the verdicts are those the converter gives the same batch on its own.
 * Every case writes a lake and reads it back, so it runs a hundredth of {@code fuzz.tries}.
 */
class SinkInputFuzzTest {
  @Provide
  Arbitrary<HostileInput.Batch> batches() {
    return Arbitraries.randomValue(HostileInput::batch);
  }

  @Property(tries = 100)
  void badRecordsGoToTheReporterAndTheRestLandOnce(@ForAll("batches") HostileInput.Batch batch)
      throws IOException {
    putAndReadBack(batch);
  }

  /**
   * Found by the property: a record 600 levels deep made put fail (storing its table's schema hit
   * Jackson's nesting limit) instead of going to the reporter.
   */
  @Example
  void regressionADeepRecordIsReportedAndTheNextLands() throws IOException {
    putAndReadBack(
        new HostileInput.Batch(List.of(HostileInput.deep(new Random(1), 600), Map.of("id", 1))));
  }

  private void putAndReadBack(HostileInput.Batch batch) throws IOException {
    Path root = Files.createTempDirectory("sink-input-fuzz");
    try {
      LocalLakeStorage storage = new LocalLakeStorage(root);
      LakeHarness harness = new LakeHarness(1, batch.values().size());
      FormatConfig format = HostileInput.FORMAT;
      harness.converter =
          new LakeRowConverter(format, new TableSchemaLog(storage, new LakeLayout()));
      harness.fileWriter = new ParquetFileWriter(format);
      harness.partitioner = (record, row, wallclock) -> "p=0";
      harness.rotation = new RotationConfig(10_000, 0, -1, 1000, 64L << 20);
      harness.start(storage);
      List<SinkRecord> records = new ArrayList<>();
      for (int offset = 0; offset < batch.values().size(); offset++) {
        records.add(HostileInput.record(offset, batch.values().get(offset)));
      }

      harness.writer.put(records);
      harness.flushBySchedule();
      harness.writer.awaitInFlight();

      List<HostileInput.Verdict> expected = HostileInput.verdicts(batch);
      List<Long> rejected = new ArrayList<>();
      List<String> reasons = new ArrayList<>();
      List<Long> accepted = new ArrayList<>();
      for (HostileInput.Verdict verdict : expected) {
        if (verdict.rejected() != null) {
          rejected.add(verdict.offset());
          reasons.add(verdict.rejected());
        } else if (verdict.row() != null) {
          accepted.add(verdict.offset());
        }
      }
      assertThat(harness.context.reported)
          .extracting(SinkRecord::kafkaOffset)
          .as("the records reported are the ones the converter rejects")
          .containsExactlyElementsOf(rejected);
      assertThat(harness.context.reasons)
          .extracting(Throwable::getMessage)
          .containsExactlyElementsOf(reasons);
      try (DuckDbLake lake = new DuckDbLake(root)) {
        List<Long> landed =
            accepted.isEmpty()
                ? List.of()
                : lake.query("SELECT __offset FROM ${table:orders} ORDER BY __offset").stream()
                    .map(row -> ((Number) row.get("__offset")).longValue())
                    .toList();
        assertThat(landed).as("every other record, once").isEqualTo(accepted);
      }
      harness.writer.stop();
    } finally {
      try (Stream<Path> files = Files.walk(root)) {
        files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
  }
}
