package io.skippr.connect.sink.convert;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.sink.convert.FormatConfig.NullValues;
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
