package io.skippr.connect.lake.convert;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.format.ParquetFileWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.connect.data.Struct;

/**
 * Hostile schemaless values through the row converter and the Parquet writer: each record becomes a
 * row or is rejected with a reason naming its position; nothing else escapes; the rows of a batch
 * are written whatever the rejected ones were; the same batch gets the same verdicts. Cases: {@code
 * fuzz.tries}.
 */
class ConverterFuzzTest {
  @Provide
  Arbitrary<HostileInput.Batch> batches() {
    return Arbitraries.randomValue(HostileInput::batch);
  }

  /**
   * Found by the property: a record 600 levels deep failed put with a StackOverflowError or, when
   * its table's schema was stored, with Jackson's nesting limit, instead of being rejected.
   */
  @Example
  void regressionARecordNestedDeeperThanTheLakeStoresIsRejected() {
    Object deep = HostileInput.deep(new Random(1), 600);

    List<HostileInput.Verdict> verdicts =
        HostileInput.verdicts(new HostileInput.Batch(List.of(deep, Map.of("id", 1))));

    assertThat(verdicts.get(0).rejected())
        .isEqualTo(
            "topic orders partition 0 offset 0: the value nests more than 100 levels of objects"
                + " and lists; the lake stores 100");
    assertThat(verdicts.get(1).row()).isNotNull();
  }

  /**
   * Found by the property: records that keep bringing new keys grew their table without bound; a
   * Parquet writer holds some 30 KiB per column, so a file of 8000 columns took 260 MB of heap and
   * more columns ran out of it. A record that would pass 4096 columns is rejected.
   */
  @Example
  void regressionATableStopsGrowingAt4096Columns() throws IOException {
    List<Object> values = new ArrayList<>();
    for (int record = 0; record < 5; record++) {
      Map<String, Object> wide = new LinkedHashMap<>();
      for (int field = 0; field < 1000; field++) {
        wide.put("r" + record + "f" + field, field);
      }
      values.add(wide);
    }

    List<HostileInput.Verdict> verdicts = HostileInput.verdicts(new HostileInput.Batch(values));

    assertThat(verdicts.subList(0, 4)).allMatch(v -> v.row() != null);
    assertThat(verdicts.get(4).rejected())
        .isEqualTo(
            "topic orders partition 0 offset 4: the record would take its table to 5004 columns,"
                + " more than the 4096 a table may have");
  }

  @Property
  void everyRecordBecomesARowOrIsRejectedWithAReasonAndTheRowsAreWritten(
      @ForAll("batches") HostileInput.Batch batch) throws IOException {
    List<HostileInput.Verdict> verdicts = HostileInput.verdicts(batch);

    Map<String, List<Struct>> rows = new LinkedHashMap<>();
    for (HostileInput.Verdict verdict : verdicts) {
      if (verdict.row() != null) {
        rows.computeIfAbsent(verdict.row().table(), t -> new ArrayList<>())
            .add(verdict.row().row());
      } else if (verdict.rejected() != null) {
        assertThat(verdict.rejected())
            .startsWith("topic orders partition 0 offset " + verdict.offset() + ": ");
      }
    }
    for (List<Struct> table : rows.values()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      new ParquetFileWriter(HostileInput.FORMAT).write(FileSchemas.widest(table), table, out);
      assertThat(out.size()).isPositive();
    }
    assertThat(HostileInput.verdicts(batch))
        .as("the same batch, the same verdicts")
        .extracting(HostileInput.Verdict::rejected)
        .isEqualTo(verdicts.stream().map(HostileInput.Verdict::rejected).toList());
  }
}
