package io.skippr.connect.lake.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.convert.FormatConfig.NullValues;
import io.skippr.connect.lake.format.ParquetFileWriter;
import io.skippr.connect.testkit.DuckDbLake;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Records → converter → one file per table (schema from the rows) → DuckDB. */
class LakeRowsInDuckDbTest {
  @TempDir Path dir;
  private DuckDbLake lake;

  @BeforeEach
  void open() {
    lake = new DuckDbLake(dir);
  }

  @AfterEach
  void close() {
    lake.close();
  }

  @Test
  void schemalessRecordsInferWidenAndGrowTheirTable() throws Exception {
    LakeRowConverter converter = new LakeRowConverter(Records.plain());
    List<Struct> rows = new ArrayList<>();
    rows.add(convert(converter, "{\"id\":1,\"price\":2,\"tags\":[],\"note\":null}", 0));
    rows.add(
        convert(
            converter,
            "{\"id\":3000000000,\"price\":2.5,\"tags\":[\"a\",\"b\"],"
                + "\"ts\":\"2024-05-01T07:08:09.010Z\",\"note\":{\"by\":\"ann\"}}",
            1));
    assertThatThrownBy(() -> convert(converter, "{\"id\":2,\"price\":\"cheap\"}", 2))
        .isInstanceOf(RecordRejectedException.class)
        .hasMessage(
            "topic j partition 2 offset 2: field price: expected double, got string \"cheap\"");
    assertThatThrownBy(() -> convert(converter, "{\"id\":2,\"ts\":\"yesterday\"}", 3))
        .isInstanceOf(RecordRejectedException.class)
        .hasMessageContaining("ts: expected timestamp, got string \"yesterday\"");
    rows.add(
        convert(
            converter,
            "{\"id\":4,\"items\":[{\"sku\":\"x\",\"qty\":1},{\"sku\":\"y\"}],\"price\":7}",
            4));

    write("j", rows);

    Map<String, Object> types = new LinkedHashMap<>();
    for (Map<String, Object> row : lake.query("DESCRIBE SELECT * FROM ${table:j}")) {
      types.put((String) row.get("column_name"), row.get("column_type"));
    }
    assertThat(types)
        .containsExactly(
            Map.entry("id", "BIGINT"),
            Map.entry("note", "STRUCT(\"by\" VARCHAR)"),
            Map.entry("price", "DOUBLE"),
            Map.entry("tags", "VARCHAR[]"),
            Map.entry("ts", "TIMESTAMP WITH TIME ZONE"),
            Map.entry("items", "STRUCT(qty INTEGER, sku VARCHAR)[]"));
    assertThat(
            lake.query(
                "SELECT id, price, tags::VARCHAR AS tags, epoch_ms(ts) AS ts,"
                    + " note::VARCHAR AS note, items::VARCHAR AS items"
                    + " FROM ${table:j} ORDER BY id"))
        .containsExactly(
            row("id", 1L, "price", 2.0, "tags", "[]", "ts", null, "note", null, "items", null),
            row(
                "id",
                4L,
                "price",
                7.0,
                "tags",
                null,
                "ts",
                null,
                "note",
                null,
                "items",
                "[{'qty': 1, 'sku': x}, {'qty': NULL, 'sku': y}]"),
            row(
                "id",
                3_000_000_000L,
                "price",
                2.5,
                "tags",
                "[a, b]",
                "ts",
                1_714_547_289_010L,
                "note",
                "{'by': ann}",
                "items",
                null));
  }

  @Test
  void metadataKeysAndTombstonesLandAsColumns() throws Exception {
    LakeRowConverter converter =
        new LakeRowConverter(Records.config(true, true, NullValues.WRITE, "${topic}"));
    Schema value =
        SchemaBuilder.struct()
            .field("id", Schema.INT32_SCHEMA)
            .field("address", SchemaBuilder.struct().field("city", Schema.STRING_SCHEMA).build())
            .build();
    Struct address = new Struct(value.field("address").schema()).put("city", "Oslo");
    List<Struct> rows = new ArrayList<>();
    rows.add(
        converter
            .convert(
                Records.record(
                    "m",
                    Schema.STRING_SCHEMA,
                    "k1",
                    value,
                    new Struct(value).put("id", 1).put("address", address),
                    10))
            .row());
    rows.add(
        converter.convert(Records.record("m", Schema.STRING_SCHEMA, "k1", value, null, 11)).row());

    write("m", rows);

    assertThat(
            lake.query(
                "SELECT id, address.city AS city, __key, __topic, __partition, __offset,"
                    + " epoch_ms(__timestamp) AS ts, __deleted FROM ${table:m} ORDER BY __offset"))
        .containsExactly(
            row(
                "id",
                1,
                "city",
                "Oslo",
                "__key",
                "k1",
                "__topic",
                "m",
                "__partition",
                2,
                "__offset",
                10L,
                "ts",
                1_700_000_000_010L,
                "__deleted",
                false),
            row(
                "id",
                null,
                "city",
                null,
                "__key",
                "k1",
                "__topic",
                "m",
                "__partition",
                2,
                "__offset",
                11L,
                "ts",
                1_700_000_000_011L,
                "__deleted",
                true));
  }

  @Test
  void fileSchemaIsTheWidestRowSchemaWhateverTheOrder() {
    LakeRowConverter converter = new LakeRowConverter(Records.plain());
    Struct narrow = convert(converter, "{\"a\":1}", 0);
    Struct wide = convert(converter, "{\"a\":5000000000,\"b\":\"x\"}", 1);
    Struct narrowAgain = convert(converter, "{\"a\":2}", 2);

    Schema forward = FileSchemas.widest(List.of(narrow, wide, narrowAgain));
    Schema backward = FileSchemas.widest(List.of(narrowAgain, wide, narrow));

    assertThat(forward.field("a").schema().type()).isEqualTo(Schema.Type.INT64);
    assertThat(forward.field("b").schema().type()).isEqualTo(Schema.Type.STRING);
    assertThat(backward.field("a").schema().type()).isEqualTo(Schema.Type.INT64);
    assertThat(backward.field("b")).isNotNull();
    assertThat(FileSchemas.widest(List.of(narrow))).isSameAs(narrow.schema());
  }

  @Test
  void headersKeepTheirOrderDuplicatesAndNullsAsStrings() throws Exception {
    LakeRowConverter converter = new LakeRowConverter(Records.plain().includingHeaders(true));
    SinkRecord first = Records.json("j", "{\"id\":1}", 0);
    first
        .headers()
        .addString("trace", "t-1")
        .addInt("retry", 1)
        .addInt("retry", 2)
        .addBoolean("replayed", true)
        .add("empty", null, Schema.OPTIONAL_STRING_SCHEMA);
    SinkRecord second = Records.json("j", "{\"id\":2}", 1);
    List<Struct> rows = List.of(converter.convert(first).row(), converter.convert(second).row());

    write("j", rows);

    assertThat(
            lake.query(
                "SELECT id, len(__headers) AS n, list_transform(__headers, lambda h: h.key)::VARCHAR"
                    + " AS keys, list_transform(__headers, lambda h: coalesce(h.value, '<null>'))"
                    + "::VARCHAR AS vals FROM ${table:j} ORDER BY id"))
        .containsExactly(
            row(
                "id",
                1,
                "n",
                5L,
                "keys",
                "[trace, retry, retry, replayed, empty]",
                "vals",
                "[t-1, 1, 2, true, <null>]"),
            row("id", 2, "n", 0L, "keys", "[]", "vals", "[]"));
  }

  private static Struct convert(LakeRowConverter converter, String json, long offset) {
    SinkRecord record = Records.json("j", json, offset);
    return converter.convert(record).row();
  }

  private void write(String table, List<Struct> rows) throws Exception {
    Path file = dir.resolve(table).resolve("unit.snappy.parquet");
    Files.createDirectories(file.getParent());
    try (OutputStream out = Files.newOutputStream(file)) {
      new ParquetFileWriter(FormatConfig.defaults()).write(FileSchemas.widest(rows), rows, out);
    }
  }

  private static Map<String, Object> row(Object... keyValues) {
    Map<String, Object> row = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      row.put((String) keyValues[i], keyValues[i + 1]);
    }
    return row;
  }
}
