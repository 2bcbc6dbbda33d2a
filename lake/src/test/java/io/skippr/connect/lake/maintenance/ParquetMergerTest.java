package io.skippr.connect.lake.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.format.ParquetFileWriter;
import io.skippr.connect.testkit.DuckDbLake;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merging by key: the last row of each key, none of a deleted key, and files of every schema the
 * table had (a lake written before deletes applied by default had no {@code __deleted} and required
 * columns; a unit of tombstones only has the key columns) written in one schema they all widen to.
 */
class ParquetMergerTest {
  private static final Schema OLD =
      SchemaBuilder.struct()
          .field("id", Schema.INT32_SCHEMA)
          .field("name", Schema.STRING_SCHEMA)
          .field("visits", Schema.INT32_SCHEMA)
          .build();
  private static final Schema NEW =
      SchemaBuilder.struct()
          .field("id", Schema.OPTIONAL_INT32_SCHEMA)
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .field("visits", Schema.OPTIONAL_INT64_SCHEMA)
          .field("tier", Schema.OPTIONAL_STRING_SCHEMA)
          .field("__deleted", Schema.OPTIONAL_BOOLEAN_SCHEMA)
          .build();

  /** A unit of tombstones only: the key and __deleted. */
  private static final Schema KEY_ONLY =
      SchemaBuilder.struct()
          .field("id", Schema.OPTIONAL_INT32_SCHEMA)
          .field("__deleted", Schema.OPTIONAL_BOOLEAN_SCHEMA)
          .build();

  @TempDir Path dir;

  @Test
  void keepsTheLastRowOfEachLiveKeyInASchemaEveryInputWidensTo() throws Exception {
    byte[] old =
        file(
            OLD,
            List.of(
                new Struct(OLD).put("id", 1).put("name", "a").put("visits", 1),
                new Struct(OLD).put("id", 2).put("name", "b").put("visits", 1),
                new Struct(OLD).put("id", 3).put("name", "c").put("visits", 1)));
    byte[] changes =
        file(
            NEW,
            List.of(
                row(2, "b2", 5L, "gold", false),
                row(3, null, null, null, true),
                row(4, "d", 1L, null, false),
                row(4, null, null, null, true),
                row(5, "e", 2L, null, false)));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] deletes =
        file(KEY_ONLY, List.of(new Struct(KEY_ONLY).put("id", 5).put("__deleted", true)));
    byte[] revived = file(NEW, List.of(row(5, "e2", 3L, null, false)));
    ParquetMerger.Merged merged =
        new ParquetMerger(FormatConfig.defaults())
            .mergeByKey(
                List.of(() -> old, () -> changes, () -> deletes, () -> revived),
                out,
                List.of("id"),
                false);

    assertThat(merged.rows()).isEqualTo(3);
    Path file = Files.write(dir.resolve("merged.parquet"), out.toByteArray());
    try (DuckDbLake duck = new DuckDbLake(dir)) {
      List<String> read = new ArrayList<>();
      for (Map<String, Object> row :
          duck.query(
              "select id, name, visits, tier, __deleted, typeof(visits) as t from read_parquet('"
                  + file
                  + "') order by id")) {
        read.add(
            row.get("id")
                + " "
                + row.get("name")
                + " "
                + row.get("visits")
                + " "
                + row.get("tier")
                + " "
                + row.get("__deleted")
                + " "
                + row.get("t"));
      }
      assertThat(read)
          .containsExactly(
              "1 a 1 null null BIGINT", "2 b2 5 gold false BIGINT", "5 e2 3 null false BIGINT");
    }
  }

  @Test
  void keepsTheRowThatDeletesAKeyWhenAskedTo() throws Exception {
    byte[] changes =
        file(
            NEW,
            List.of(
                row(2, "b", 1L, null, false),
                row(3, "c", 1L, null, false),
                row(3, null, null, null, true)));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ParquetMerger.Merged merged =
        new ParquetMerger(FormatConfig.defaults())
            .mergeByKey(List.of(() -> changes), out, List.of("id"), true);

    assertThat(merged.rows()).isEqualTo(2);
    Path file = Files.write(dir.resolve("kept.parquet"), out.toByteArray());
    try (DuckDbLake duck = new DuckDbLake(dir)) {
      List<String> read = new ArrayList<>();
      for (Map<String, Object> row :
          duck.query("select id, __deleted from read_parquet('" + file + "') order by id")) {
        read.add(row.get("id") + " " + row.get("__deleted"));
      }
      assertThat(read).containsExactly("2 false", "3 true");
    }
  }

  @Test
  void refusesInputsWhoseSchemasDoNotMerge() throws Exception {
    Schema narrower =
        SchemaBuilder.struct()
            .field("id", Schema.OPTIONAL_INT32_SCHEMA)
            .field("name", Schema.OPTIONAL_INT32_SCHEMA)
            .build();
    byte[] old = file(OLD, List.of(new Struct(OLD).put("id", 1).put("name", "a").put("visits", 1)));
    byte[] other = file(narrower, List.of(new Struct(narrower).put("id", 1).put("name", 3)));
    assertThatThrownBy(
            () ->
                new ParquetMerger(FormatConfig.defaults())
                    .mergeByKey(
                        List.of(() -> old, () -> other),
                        new ByteArrayOutputStream(),
                        List.of("id"),
                        false))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("schemas do not merge");
  }

  private static Struct row(int id, String name, Long visits, String tier, boolean deleted) {
    return new Struct(NEW)
        .put("id", id)
        .put("name", name)
        .put("visits", visits)
        .put("tier", tier)
        .put("__deleted", deleted);
  }

  private static byte[] file(Schema schema, List<Struct> rows) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new ParquetFileWriter(FormatConfig.defaults()).write(schema, rows, out);
    return out.toByteArray();
  }
}
