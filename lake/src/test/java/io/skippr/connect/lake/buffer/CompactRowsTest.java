package io.skippr.connect.lake.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.bench.BenchRows;
import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.lake.format.ParquetFileWriter;
import io.skippr.connect.schema.SchemaEvolution;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.api.Test;

/** Rows compacted under memory pressure come back equal, and Parquet writes the same bytes. */
class CompactRowsTest {
  private static final Schema INNER =
      SchemaBuilder.struct()
          .field("b", Schema.OPTIONAL_BOOLEAN_SCHEMA)
          .field("f", Schema.OPTIONAL_FLOAT32_SCHEMA)
          .optional()
          .build();
  private static final Schema EVERY_TYPE =
      SchemaBuilder.struct()
          .name("every")
          .field("i8", Schema.INT8_SCHEMA)
          .field("i16", Schema.OPTIONAL_INT16_SCHEMA)
          .field("i32", Schema.INT32_SCHEMA)
          .field("i64", Schema.OPTIONAL_INT64_SCHEMA)
          .field("f64", Schema.FLOAT64_SCHEMA)
          .field("text", Schema.OPTIONAL_STRING_SCHEMA)
          .field("bytes", Schema.OPTIONAL_BYTES_SCHEMA)
          .field("price", Decimal.builder(3).optional().build())
          .field("ts", Timestamp.builder().optional().build())
          .field("day", Date.builder().optional().build())
          .field("time", Time.builder().optional().build())
          .field("inner", INNER)
          .field("list", SchemaBuilder.array(Schema.OPTIONAL_INT64_SCHEMA).optional().build())
          .field(
              "map",
              SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_FLOAT64_SCHEMA)
                  .optional()
                  .build())
          .build();

  @Test
  void rowsOfEveryTypeComeBackEqualInTheirOrder() {
    Random random = new Random(7);
    List<Struct> rows = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      rows.add(everyType(random, i));
    }
    PathBuffer path = filled(rows);
    assertThat(path.rows()).containsExactlyElementsOf(rows);
    assertThat(path.bytes()).isLessThan(rows.size() * 1000L);
  }

  @Test
  void parquetWritesTheSameBytesFromCompactedRows() throws IOException {
    List<Struct> rows = new ArrayList<>();
    for (long i = 0; i < 3000; i++) {
      rows.add(i % 2 == 0 ? BenchRows.row(i, 3) : BenchRows.Payload.FLAT.row(i, 3));
    }
    assertSameFile(rows, filled(rows));
    List<Struct> events = new ArrayList<>();
    Random random = new Random(3);
    for (long i = 0; i < 3000; i++) {
      events.add(i % 3 == 0 ? everyType(random, (int) i) : everyType(random, -1));
    }
    assertSameFile(events, filled(events));
  }

  @Test
  void byteBuffersAndCopiesOfTheSchemaComeBackAsTheirBytes() {
    Schema schema = SchemaBuilder.struct().field("b", Schema.BYTES_SCHEMA).build();
    List<Struct> rows = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      Object bytes = i == 4 ? ByteBuffer.wrap(new byte[] {(byte) i}) : new byte[] {(byte) i};
      rows.add(new Struct(schema).put("b", bytes));
    }
    rows.set(6, new Struct(SchemaBuilder.struct().field("b", Schema.BYTES_SCHEMA).build()));
    PathBuffer path = new PathBuffer("t", "p", schema);
    for (Struct row : rows) {
      assertThat(path.add(row, 100, SchemaEvolution::evolve)).isTrue();
    }
    path.compact(new RowArena());
    List<Struct> back = new ArrayList<>(path.rows());
    assertThat(back).hasSize(10);
    for (int i = 0; i < 10; i++) {
      assertThat(bytesOf(back.get(i).get("b")))
          .as("row " + i)
          .isEqualTo(bytesOf(rows.get(i).get("b")));
    }
  }

  /**
   * Half the rows compacted in two passes, the rest held as objects, as memory pressure leaves
   * them.
   */
  private static PathBuffer filled(List<Struct> rows) {
    PathBuffer path = new PathBuffer("t", "p", rows.get(0).schema());
    RowArena arena = new RowArena();
    for (int i = 0; i < rows.size(); i++) {
      assertThat(path.add(rows.get(i), 1000, SchemaEvolution::evolve)).isTrue();
      if (i == rows.size() / 4 || i == rows.size() / 2) {
        assertThat(path.compact(arena)).isPositive();
      }
    }
    return path;
  }

  private static void assertSameFile(List<Struct> rows, PathBuffer path) throws IOException {
    ParquetFileWriter writer = new ParquetFileWriter(FormatConfig.defaults());
    ByteArrayOutputStream original = new ByteArrayOutputStream();
    writer.write(path.schema(), rows, original);
    ByteArrayOutputStream compacted = new ByteArrayOutputStream();
    writer.write(path.schema(), path.rows(), compacted);
    assertThat(compacted.toByteArray()).isEqualTo(original.toByteArray());
  }

  private static Struct everyType(Random random, int i) {
    Struct row =
        new Struct(EVERY_TYPE)
            .put("i8", (byte) random.nextInt())
            .put("i32", random.nextInt())
            .put("f64", random.nextGaussian() * 1e6);
    if (i < 0) {
      return row; // every optional field null
    }
    Map<String, Double> map = new LinkedHashMap<>();
    for (int k = random.nextInt(4); k > 0; k--) {
      map.put("k" + random.nextInt(100), random.nextBoolean() ? null : random.nextDouble());
    }
    List<Long> list = new ArrayList<>();
    for (int k = random.nextInt(4); k > 0; k--) {
      list.add(random.nextBoolean() ? null : random.nextLong());
    }
    return row.put("i16", (short) random.nextInt())
        .put("i64", random.nextLong())
        .put("text", i % 5 == 0 ? "" : "text ü € 𝄞 " + random.nextInt())
        .put("bytes", i % 7 == 0 ? null : new byte[] {(byte) i, 0, -1})
        .put("price", BigDecimal.valueOf(random.nextLong() % 10_000_000, 3))
        .put("ts", new java.util.Date(random.nextLong() % 4_000_000_000_000L))
        .put("day", new java.util.Date(86_400_000L * (random.nextInt(40_000) - 20_000)))
        .put("time", new java.util.Date(random.nextInt(86_400_000)))
        .put("inner", i % 3 == 0 ? null : new Struct(INNER).put("f", random.nextFloat()))
        .put("list", list)
        .put("map", map);
  }

  private static byte[] bytesOf(Object value) {
    if (value instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return bytes;
    }
    return (byte[]) value;
  }
}
