package io.skippr.connect.lake.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.convert.FormatConfig.Codec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ParquetFileWriterTest {
  private static final Schema FILE =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("score", Schema.OPTIONAL_FLOAT64_SCHEMA)
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  @RegisterExtension final ParquetFiles files = new ParquetFiles();

  @Test
  void runsWithoutHadoopOnTheClassPath() {
    assertThatThrownBy(() -> Class.forName("org.apache.hadoop.conf.Configuration"))
        .isInstanceOf(ClassNotFoundException.class);
  }

  @ParameterizedTest
  @EnumSource(Codec.class)
  void everyCodecIsReadableByDuckDb(Codec codec) throws Exception {
    List<Struct> rows = new ArrayList<>();
    for (long i = 0; i < 1000; i++) {
      rows.add(new Struct(FILE).put("id", i).put("score", i / 4.0).put("name", "n" + (i % 7)));
    }
    Path file = files.write("t", ParquetFiles.config(codec, 1 << 20), FILE, rows);

    assertThat(file.getFileName().toString()).endsWith("." + codec.configName() + ".parquet");
    Map<String, Object> sums =
        files
            .query(
                "SELECT count(*) AS n, sum(id) AS ids, sum(score) AS scores,"
                    + " count(DISTINCT name) AS names FROM ${table:t}")
            .get(0);
    assertThat(sums)
        .containsEntry("n", 1000L)
        .containsEntry("ids", java.math.BigInteger.valueOf(499_500L))
        .containsEntry("scores", 124_875.0)
        .containsEntry("names", 7L);
    String expectedCodec = codec == Codec.NONE ? "UNCOMPRESSED" : codec.name();
    assertThat(
            files.query(
                "SELECT DISTINCT compression FROM parquet_metadata('"
                    + file.toString().replace("'", "''")
                    + "')"))
        .containsExactly(Map.of("compression", expectedCodec));
  }

  @Test
  void sameRowsGiveTheSameBytes() throws Exception {
    for (Codec codec : Codec.values()) {
      FormatConfig config = ParquetFiles.config(codec, 1 << 20);
      byte[] first = ParquetFiles.bytes(config, FILE, sampleRows());
      byte[] second = ParquetFiles.bytes(config, FILE, sampleRows());
      assertThat(second).as(codec.name()).isEqualTo(first);
      assertThat(first).isNotEmpty();
    }
  }

  @Test
  void narrowerRowsAreWidenedByFieldName() throws Exception {
    Schema older = SchemaBuilder.struct().field("id", Schema.INT32_SCHEMA).build();
    Schema reordered =
        SchemaBuilder.struct()
            .field("name", Schema.OPTIONAL_STRING_SCHEMA)
            .field("score", Schema.OPTIONAL_INT16_SCHEMA)
            .field("id", Schema.INT8_SCHEMA)
            .build();
    List<Struct> rows =
        List.of(
            new Struct(older).put("id", 7),
            new Struct(reordered).put("name", "b").put("score", (short) 3).put("id", (byte) 8),
            new Struct(FILE).put("id", 9L).put("score", 0.5));
    files.write("t", FormatConfig.defaults(), FILE, rows);

    assertThat(files.query("SELECT id, score, name FROM ${table:t} ORDER BY id"))
        .containsExactly(row(7L, null, null), row(8L, 3.0, "b"), row(9L, 0.5, null));
  }

  @Test
  void rejectsRowsThatDoNotFitTheFileSchema() {
    Schema wrongType = SchemaBuilder.struct().field("id", Schema.STRING_SCHEMA).build();
    Schema extraField =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("extra", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    Schema missingRequired =
        SchemaBuilder.struct().field("name", Schema.OPTIONAL_STRING_SCHEMA).build();

    assertThatThrownBy(() -> write(new Struct(wrongType).put("id", "x")))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("field id is STRING in the row but INT64 in the file");
    assertThatThrownBy(() -> write(new Struct(extraField).put("id", 1L)))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("field extra is not in the file schema");
    assertThatThrownBy(() -> write(new Struct(missingRequired)))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("field id is required in the file but missing from the row");
  }

  @Test
  void smallRowGroupBytesSplitAFileIntoSeveralRowGroups() throws Exception {
    List<Struct> rows = new ArrayList<>();
    String filler = "x".repeat(500);
    for (long i = 0; i < 20_000; i++) {
      rows.add(new Struct(FILE).put("id", i).put("name", filler + i));
    }
    Path file = files.write("t", ParquetFiles.config(Codec.NONE, 1 << 20), FILE, rows);

    long groups =
        (Long)
            files
                .query(
                    "SELECT count(DISTINCT row_group_id) AS g FROM parquet_metadata('"
                        + file.toString().replace("'", "''")
                        + "')")
                .get(0)
                .get("g");
    assertThat(groups).isGreaterThan(3);
    assertThat(files.query("SELECT count(*) AS n FROM ${table:t}"))
        .containsExactly(Map.of("n", 20_000L));
  }

  private void write(Struct row) throws Exception {
    ParquetFiles.bytes(FormatConfig.defaults(), FILE, List.of(row));
  }

  private static List<Struct> sampleRows() {
    List<Struct> rows = new ArrayList<>();
    for (long i = 0; i < 500; i++) {
      rows.add(new Struct(FILE).put("id", i).put("name", i % 3 == 0 ? null : "v" + i));
    }
    return rows;
  }

  private static Map<String, Object> row(long id, Double score, String name) {
    Map<String, Object> row = new java.util.LinkedHashMap<>();
    row.put("id", id);
    row.put("score", score);
    row.put("name", name);
    return row;
  }
}
