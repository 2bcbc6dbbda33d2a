package io.skippr.connect.lake.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.convert.FormatConfig;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every Connect type written by ParquetFileWriter and read back by DuckDB. */
class ParquetTypeMappingTest {
  private static final Schema INNER =
      SchemaBuilder.struct().field("x", Schema.STRING_SCHEMA).build();
  private static final Schema NESTED =
      SchemaBuilder.struct()
          .optional()
          .field("a", Schema.INT32_SCHEMA)
          .field("inner", INNER)
          .build();
  private static final Schema ITEM =
      SchemaBuilder.struct()
          .field("sku", Schema.STRING_SCHEMA)
          .field("qty", Schema.OPTIONAL_INT32_SCHEMA)
          .build();
  private static final Schema DEC_10_2 =
      Decimal.builder(2).parameter("connect.decimal.precision", "10").optional().build();
  private static final Schema DEC_5_1 =
      Decimal.builder(1).parameter("connect.decimal.precision", "5").build();
  private static final Schema DEC_DEFAULT = Decimal.builder(4).optional().build();

  private static final Schema ROW =
      SchemaBuilder.struct()
          .field("i8", Schema.INT8_SCHEMA)
          .field("i16", Schema.INT16_SCHEMA)
          .field("i32", Schema.INT32_SCHEMA)
          .field("i64", Schema.INT64_SCHEMA)
          .field("f32", Schema.FLOAT32_SCHEMA)
          .field("f64", Schema.FLOAT64_SCHEMA)
          .field("flag", Schema.BOOLEAN_SCHEMA)
          .field("s", Schema.OPTIONAL_STRING_SCHEMA)
          .field("raw", Schema.OPTIONAL_BYTES_SCHEMA)
          .field("ts", Timestamp.builder().optional().build())
          .field("day", Date.builder().optional().build())
          .field("tod", Time.builder().optional().build())
          .field("dec", DEC_10_2)
          .field("dec_small", DEC_5_1)
          .field("dec_wide", DEC_DEFAULT)
          .field("nested", NESTED)
          .field("tags", SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA).optional().build())
          .field("items", SchemaBuilder.array(ITEM).optional().build())
          .field(
              "attrs",
              SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_INT64_SCHEMA)
                  .optional()
                  .build())
          .field("by_sku", SchemaBuilder.map(Schema.STRING_SCHEMA, ITEM).optional().build())
          .build();

  @RegisterExtension final ParquetFiles files = new ParquetFiles();

  @Test
  void mapsEveryConnectTypeToTheParquetTypeDuckDbExpects() throws Exception {
    files.write("t", FormatConfig.defaults(), ROW, List.of(fullRow(), sparseRow()));

    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("i8", "TINYINT");
    expected.put("i16", "SMALLINT");
    expected.put("i32", "INTEGER");
    expected.put("i64", "BIGINT");
    expected.put("f32", "FLOAT");
    expected.put("f64", "DOUBLE");
    expected.put("flag", "BOOLEAN");
    expected.put("s", "VARCHAR");
    expected.put("raw", "BLOB");
    expected.put("ts", "TIMESTAMP WITH TIME ZONE");
    expected.put("day", "DATE");
    expected.put("tod", "TIME");
    expected.put("dec", "DECIMAL(10,2)");
    expected.put("dec_small", "DECIMAL(5,1)");
    expected.put("dec_wide", "DECIMAL(38,4)");
    expected.put("nested", "STRUCT(a INTEGER, \"inner\" STRUCT(x VARCHAR))");
    expected.put("tags", "VARCHAR[]");
    expected.put("items", "STRUCT(sku VARCHAR, qty INTEGER)[]");
    expected.put("attrs", "MAP(VARCHAR, BIGINT)");
    expected.put("by_sku", "MAP(VARCHAR, STRUCT(sku VARCHAR, qty INTEGER))");
    assertThat(files.types("t")).containsExactlyEntriesOf(expected);
  }

  @Test
  void readsBackEveryValue() throws Exception {
    files.write("t", FormatConfig.defaults(), ROW, List.of(fullRow()));

    Map<String, Object> row =
        files
            .query(
                "SELECT i8, i16, i32, i64, f32, f64, flag, s, hex(raw) AS raw,"
                    + " epoch_ms(ts) AS ts, day::VARCHAR AS day, tod::VARCHAR AS tod,"
                    + " dec::VARCHAR AS dec, dec_small::VARCHAR AS dec_small,"
                    + " dec_wide::VARCHAR AS dec_wide, nested::VARCHAR AS nested,"
                    + " tags::VARCHAR AS tags, items::VARCHAR AS items,"
                    + " attrs::VARCHAR AS attrs, by_sku::VARCHAR AS by_sku FROM ${table:t}")
            .get(0);

    assertThat(row)
        .containsEntry("i8", (byte) -7)
        .containsEntry("i16", (short) 31000)
        .containsEntry("i32", -2_000_000_000)
        .containsEntry("i64", 9_000_000_000_000L)
        .containsEntry("f32", 1.5f)
        .containsEntry("f64", -2.25d)
        .containsEntry("flag", true)
        .containsEntry("s", "héllo")
        .containsEntry("raw", "00FF10")
        .containsEntry("ts", 1_700_000_000_123L)
        .containsEntry("day", "2024-05-01")
        .containsEntry("tod", "07:08:09.01")
        .containsEntry("dec", "-12345678.90")
        .containsEntry("dec_small", "9999.9")
        .containsEntry("dec_wide", "-123456789012345678901234567890.1234")
        .containsEntry("nested", "{'a': 42, 'inner': {'x': deep}}")
        .containsEntry("tags", "[red, NULL, blue]")
        .containsEntry("items", "[{'sku': A1, 'qty': 2}, {'sku': B2, 'qty': NULL}]")
        .containsEntry("attrs", "{one=1, none=NULL}")
        .containsEntry("by_sku", "{A1={'sku': A1, 'qty': 7}}");
  }

  @Test
  void optionalFieldsStayNullAndEmptyContainersStayEmpty() throws Exception {
    files.write("t", FormatConfig.defaults(), ROW, List.of(sparseRow()));

    Map<String, Object> row =
        files
            .query(
                "SELECT s IS NULL AS s, raw IS NULL AS raw, ts IS NULL AS ts, day IS NULL AS day,"
                    + " tod IS NULL AS tod, dec IS NULL AS dec, dec_wide IS NULL AS dec_wide,"
                    + " nested IS NULL AS nested, tags::VARCHAR AS tags,"
                    + " items IS NULL AS items, attrs::VARCHAR AS attrs,"
                    + " dec_small::VARCHAR AS dec_small FROM ${table:t}")
            .get(0);

    assertThat(row)
        .containsEntry("s", true)
        .containsEntry("raw", true)
        .containsEntry("ts", true)
        .containsEntry("day", true)
        .containsEntry("tod", true)
        .containsEntry("dec", true)
        .containsEntry("dec_wide", true)
        .containsEntry("nested", true)
        .containsEntry("tags", "[]")
        .containsEntry("items", true)
        .containsEntry("attrs", "{}")
        .containsEntry("dec_small", "-0.5");
  }

  @Test
  void acceptsByteBuffersAndDatesBeforeTheEpoch() throws Exception {
    Struct row = sparseRow();
    row.put("raw", ByteBuffer.wrap("abc".getBytes(StandardCharsets.US_ASCII)));
    row.put("day", new java.util.Date(-86_400_000L));
    row.put("ts", new java.util.Date(-1L));
    files.write("t", FormatConfig.defaults(), ROW, List.of(row));

    Map<String, Object> back =
        files
            .query(
                "SELECT decode(raw) AS raw, day::VARCHAR AS day, epoch_ms(ts) AS ts"
                    + " FROM ${table:t}")
            .get(0);
    assertThat(back)
        .containsEntry("raw", "abc")
        .containsEntry("day", "1969-12-31")
        .containsEntry("ts", -1L);
  }

  @Test
  void nestsContainersInContainers() throws Exception {
    Schema matrix = SchemaBuilder.array(SchemaBuilder.array(Schema.INT32_SCHEMA).build()).build();
    Schema byCode =
        SchemaBuilder.map(Schema.INT32_SCHEMA, SchemaBuilder.array(ITEM).optional().build())
            .build();
    Schema nested =
        SchemaBuilder.struct()
            .field("matrix", matrix)
            .field("by_code", byCode)
            .field(
                "wrapper",
                SchemaBuilder.struct().field("maps", SchemaBuilder.array(byCode).build()).build())
            .build();
    Map<Integer, List<Struct>> codes = new LinkedHashMap<>();
    codes.put(7, List.of(new Struct(ITEM).put("sku", "s7").put("qty", 1)));
    codes.put(-1, null);
    Struct row =
        new Struct(nested)
            .put("matrix", List.of(List.of(1, 2), List.of(), List.of(3)))
            .put("by_code", codes)
            .put(
                "wrapper",
                new Struct(nested.field("wrapper").schema()).put("maps", List.of(codes, Map.of())));
    files.write("n", FormatConfig.defaults(), nested, List.of(row));

    assertThat(files.types("n"))
        .containsEntry("matrix", "INTEGER[][]")
        .containsEntry("by_code", "MAP(INTEGER, STRUCT(sku VARCHAR, qty INTEGER)[])")
        .containsEntry(
            "wrapper", "STRUCT(maps MAP(INTEGER, STRUCT(sku VARCHAR, qty INTEGER)[])[])");
    assertThat(
            files.query(
                "SELECT matrix::VARCHAR AS matrix, by_code::VARCHAR AS by_code,"
                    + " wrapper::VARCHAR AS wrapper FROM ${table:n}"))
        .containsExactly(
            Map.of(
                "matrix", "[[1, 2], [], [3]]",
                "by_code", "{7=[{'sku': s7, 'qty': 1}], -1=NULL}",
                "wrapper", "{'maps': [{7=[{'sku': s7, 'qty': 1}], -1=NULL}, {}]}"));
  }

  static Struct fullRow() {
    Struct inner = new Struct(INNER).put("x", "deep");
    Map<String, Long> attrs = new LinkedHashMap<>();
    attrs.put("one", 1L);
    attrs.put("none", null);
    return new Struct(ROW)
        .put("i8", (byte) -7)
        .put("i16", (short) 31000)
        .put("i32", -2_000_000_000)
        .put("i64", 9_000_000_000_000L)
        .put("f32", 1.5f)
        .put("f64", -2.25d)
        .put("flag", true)
        .put("s", "héllo")
        .put("raw", new byte[] {0, (byte) 0xFF, 0x10})
        .put("ts", new java.util.Date(1_700_000_000_123L))
        // 2024-05-01 is day 19844 after the epoch.
        .put("day", new java.util.Date(19_844L * 86_400_000L))
        .put("tod", new java.util.Date(((7 * 60 + 8) * 60 + 9) * 1000L + 10))
        .put("dec", new BigDecimal("-12345678.90"))
        .put("dec_small", new BigDecimal("9999.9"))
        .put("dec_wide", new BigDecimal("-123456789012345678901234567890.1234"))
        .put("nested", new Struct(NESTED).put("a", 42).put("inner", inner))
        .put("tags", Arrays.asList("red", null, "blue"))
        .put(
            "items",
            List.of(
                new Struct(ITEM).put("sku", "A1").put("qty", 2), new Struct(ITEM).put("sku", "B2")))
        .put("attrs", attrs)
        .put("by_sku", Map.of("A1", new Struct(ITEM).put("sku", "A1").put("qty", 7)));
  }

  static Struct sparseRow() {
    return new Struct(ROW)
        .put("i8", (byte) 0)
        .put("i16", (short) 0)
        .put("i32", 0)
        .put("i64", 0L)
        .put("f32", 0f)
        .put("f64", 0d)
        .put("flag", false)
        .put("dec_small", new BigDecimal("-0.5"))
        .put("tags", List.of())
        .put("attrs", Map.of());
  }
}
