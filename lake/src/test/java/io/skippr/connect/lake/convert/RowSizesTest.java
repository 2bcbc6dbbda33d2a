package io.skippr.connect.lake.convert;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.convert.FormatConfig.NullValues;
import java.math.BigDecimal;
import java.util.List;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.GraphLayout;

/** The row estimate against the heap the row's object graph really takes (JOL), schemas aside. */
class RowSizesTest {
  static {
    // Sizes come from the VM's layout; attaching the serviceability agent only costs seconds.
    System.setProperty("jol.skipHotspotSAAttach", "true");
  }

  private static final Schema ITEM =
      SchemaBuilder.struct()
          .field("sku", Schema.STRING_SCHEMA)
          .field("qty", Schema.INT32_SCHEMA)
          .build();
  private static final Schema ORDER =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .field("price", Decimal.builder(2).optional().build())
          .field("ts", Timestamp.SCHEMA)
          .field("active", Schema.BOOLEAN_SCHEMA)
          .field("items", SchemaBuilder.array(ITEM).build())
          .build();

  @Test
  void structRowsAreEstimatedWithinAQuarterOfTheirRealSize() {
    LakeRowConverter converter =
        new LakeRowConverter(Records.config(true, true, NullValues.IGNORE, "${topic}"));
    Struct order =
        new Struct(ORDER)
            .put("id", 123_456_789L)
            .put("name", "customer number 42 from the north")
            .put("price", new BigDecimal("1234.50"))
            .put("ts", new java.util.Date(1_700_000_000_000L))
            .put("active", true)
            .put(
                "items",
                List.of(
                    new Struct(ITEM).put("sku", "sku-1-abcdef").put("qty", 3),
                    new Struct(ITEM).put("sku", "sku-2-abcdef").put("qty", 1000)));

    LakeRow row =
        converter.convert(Records.record("orders", Schema.STRING_SCHEMA, "k-42", ORDER, order, 9));

    assertWithinAQuarter(row);
  }

  @Test
  void schemalessRowsAreEstimatedWithinAQuarterOfTheirRealSize() {
    LakeRowConverter converter = new LakeRowConverter(Records.plain());
    LakeRow row =
        converter.convert(
            Records.json(
                "j",
                "{\"id\":17,\"note\":\""
                    + "n".repeat(300)
                    + "\",\"tags\":[\"a\",\"bb\",\"ccc\"],"
                    + "\"address\":{\"city\":\"Oslo\",\"zip\":150},\"score\":2.5}",
                0));

    assertWithinAQuarter(row);
  }

  @Test
  void plannedSizesEqualTheFullWalkForEveryKindOfField() {
    Schema inner =
        SchemaBuilder.struct()
            .field("flag", Schema.BOOLEAN_SCHEMA)
            .field("count", Schema.OPTIONAL_INT32_SCHEMA)
            .field("label", Schema.STRING_SCHEMA)
            .build();
    Schema wide =
        SchemaBuilder.struct()
            .field("i8", Schema.INT8_SCHEMA)
            .field("i16", Schema.INT16_SCHEMA)
            .field("f32", Schema.FLOAT32_SCHEMA)
            .field("f64", Schema.FLOAT64_SCHEMA)
            .field("day", org.apache.kafka.connect.data.Date.SCHEMA)
            .field("time", org.apache.kafka.connect.data.Time.SCHEMA)
            .field("amount", Decimal.schema(2))
            .field("bytes", Schema.BYTES_SCHEMA)
            .field("optionalLong", Schema.OPTIONAL_INT64_SCHEMA)
            .field("inner", inner)
            .field(
                "optionalInner",
                SchemaBuilder.struct().field("x", Schema.INT64_SCHEMA).optional().build())
            .field("tags", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT64_SCHEMA).build())
            .field("order", ORDER)
            .build();
    Struct order =
        new Struct(ORDER)
            .put("id", 1L)
            .put("ts", new java.util.Date(0))
            .put("active", false)
            .put("items", List.of(new Struct(ITEM).put("sku", "s").put("qty", 1)));
    RowSizes.Planned planned = new RowSizes.Planned();
    for (int i = 0; i < 3; i++) {
      Struct row =
          new Struct(wide)
              .put("i8", (byte) i)
              .put("i16", (short) i)
              .put("f32", 1.5f)
              .put("f64", 2.5)
              .put("day", new java.util.Date(86_400_000L * i))
              .put("time", new java.util.Date(1000L * i))
              .put("amount", new BigDecimal("12345678901234567890.1" + i).setScale(2))
              .put("bytes", new byte[10 * i])
              .put("optionalLong", i == 1 ? null : (long) i)
              .put("inner", new Struct(inner).put("flag", true).put("label", "label " + i))
              .put("tags", java.util.Map.of("a", 1L, "bb", (long) i))
              .put("order", i == 2 ? order.put("name", "named") : order);

      assertThat(planned.of(row)).as("row %d", i).isEqualTo(RowSizes.of(row));
    }
  }

  private static void assertWithinAQuarter(LakeRow row) {
    long real =
        GraphLayout.parseInstance(row.row())
            .subtract(GraphLayout.parseInstance(row.row().schema()))
            .totalSize();
    assertThat(row.estimatedBytes())
        .as("estimate vs %d real bytes", real)
        .isBetween(real * 3 / 4, real * 5 / 4);
  }
}
