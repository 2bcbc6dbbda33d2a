package io.skippr.connect.lake.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.convert.FormatConfig.Codec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Dictionary encoding decided per column from a file's own rows, read back from the footer. */
class DictionaryPlanTest {
  private static final Schema USER =
      SchemaBuilder.struct()
          .optional()
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .field("country", Schema.OPTIONAL_STRING_SCHEMA)
          .build();
  private static final Schema FILE =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("message", Schema.OPTIONAL_STRING_SCHEMA)
          .field("action", Schema.OPTIONAL_STRING_SCHEMA)
          .field("score", Schema.OPTIONAL_FLOAT64_SCHEMA)
          .field("user", USER)
          .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build())
          .build();
  private static final String[] COUNTRIES = {"DE", "FR", "NL", "PL", "SE"};

  @RegisterExtension final ParquetFiles files = new ParquetFiles();

  /**
   * Row {@code i}: unique ids, messages and user names; six actions, five countries; a score of
   * {@code scores} distinct values.
   */
  private static Struct row(long i, int scores) {
    return new Struct(FILE)
        .put("id", 1_000_000L + i)
        .put("message", "message " + Long.toString(i * 0x9E3779B97F4A7C15L, 36))
        .put("action", i % 50 == 0 ? null : "action-" + i % 6)
        .put("score", (double) (i * 7919 % scores))
        .put(
            "user",
            new Struct(USER).put("name", "user-" + i).put("country", COUNTRIES[(int) i % 5]))
        .put("tags", List.of("t" + i % 3));
  }

  private static List<Struct> rows(int count, int scores) {
    List<Struct> rows = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      rows.add(row(i, scores));
    }
    return rows;
  }

  @Test
  void highCardinalityColumnsArePlainAndRepeatingOnesKeepTheirDictionary() throws Exception {
    Path file =
        files.write("t", ParquetFiles.config(Codec.SNAPPY, 32 << 20), FILE, rows(50_000, 2_000));

    Map<String, Boolean> dictionary = dictionaryPages(file);
    assertThat(dictionary)
        .containsEntry("id", false)
        .containsEntry("message", false)
        .containsEntry("user.name", false)
        .containsEntry("action", true)
        .containsEntry("score", true) // 2,000 values in 50,000 rows
        .containsEntry("user.country", true)
        .containsEntry("tags.list.element", true); // lists keep parquet-java's default
    assertThat(files.query("SELECT count(DISTINCT score) AS n FROM ${table:t}"))
        .containsExactly(Map.of("n", 2_000L));
  }

  @Test
  void aSmallFileIsSampledWholeAndKeepsTheDictionariesOfItsRepeatingColumns() throws Exception {
    Path file = files.write("t", ParquetFiles.config(Codec.SNAPPY, 32 << 20), FILE, rows(60, 5));

    assertThat(dictionaryPages(file))
        .containsEntry("id", false)
        .containsEntry("action", true)
        .containsEntry("score", true)
        .containsEntry("user.country", true);
  }

  /**
   * Replays write a unit's rows again and must give the same bytes: the decision depends on the
   * rows alone, not on what the writer wrote before.
   */
  @Test
  void theDecisionDependsOnTheRowsAloneSoAReplayWritesTheSameBytes() throws Exception {
    FormatConfig config = ParquetFiles.config(Codec.ZSTD, 32 << 20);
    List<Struct> unit = rows(20_000, 500);
    byte[] fresh = ParquetFiles.bytes(config, FILE, unit);

    ParquetFileWriter used = new ParquetFileWriter(config);
    used.write(FILE, rows(3_000, 3_000), java.io.OutputStream.nullOutputStream());
    java.io.ByteArrayOutputStream replay = new java.io.ByteArrayOutputStream();
    used.write(FILE, rows(20_000, 500), replay);

    assertThat(replay.toByteArray()).isEqualTo(fresh);
    assertThat(DictionaryPlan.decide(FILE, rows(20_000, 500)))
        .isEqualTo(DictionaryPlan.decide(FILE, unit));
  }

  @Test
  void theDistinctEstimateInvertsTheExpectedDistinctCountOfASample() {
    // 10,000 evenly spread values: 1,024 draws find 10,000 · (1 − e^(−0.1024)) ≈ 973 distinct.
    assertThat(DictionaryPlan.estimateDistinct(973, 1024)).isCloseTo(10_000, within(300.0));
    // Seven values are all found.
    assertThat(DictionaryPlan.estimateDistinct(7, 1024)).isCloseTo(7, within(0.01));
    assertThat(DictionaryPlan.estimateDistinct(1024, 1024)).isInfinite();
  }

  /** Whether each column chunk of the file has dictionary-encoded pages, by dotted path. */
  private Map<String, Boolean> dictionaryPages(Path file) {
    Map<String, Boolean> dictionary = new TreeMap<>();
    for (Map<String, Object> column :
        files.query(
            "SELECT path_in_schema AS path, encodings FROM parquet_metadata('"
                + file.toString().replace("'", "''")
                + "')")) {
      String path = ((String) column.get("path")).replace(", ", ".");
      dictionary.merge(
          path, column.get("encodings").toString().contains("DICTIONARY"), Boolean::logicalOr);
    }
    return dictionary;
  }
}
