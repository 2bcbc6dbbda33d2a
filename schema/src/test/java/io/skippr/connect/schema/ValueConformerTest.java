package io.skippr.connect.schema;

import static io.skippr.connect.schema.Samples.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class ValueConformerTest {
  private static final Schema ITEM =
      SchemaBuilder.struct()
          .optional()
          .field("price", Schema.OPTIONAL_FLOAT64_SCHEMA)
          .field("qty", Schema.INT32_SCHEMA)
          .build();
  private static final Schema ORDER =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("at", Timestamp.builder().optional().build())
          .field("day", Date.builder().optional().build())
          .field("note", Schema.OPTIONAL_STRING_SCHEMA)
          .field("items", SchemaBuilder.array(ITEM).optional().build())
          .build();

  @Test
  void conformsASchemalessRecord() {
    Object value =
        obj(
            "id",
            7,
            "at",
            "2024-05-01T12:00:00.250+02:00",
            "day",
            "2024-05-01",
            "items",
            List.of(obj("price", 3L, "qty", 2L), obj("qty", 1.0)));
    Struct struct = (Struct) ValueConformer.conform(value, ORDER);
    struct.validate();
    assertThat(struct.schema()).isSameAs(ORDER);
    assertThat(struct.get("id")).isEqualTo(7L);
    assertThat(struct.get("at")).isEqualTo(new java.util.Date(1714557600250L));
    assertThat(struct.get("day")).isEqualTo(new java.util.Date(1714521600000L));
    assertThat(struct.get("note")).isNull();
    List<?> items = struct.getArray("items");
    assertThat(((Struct) items.get(0)).get("price")).isEqualTo(3.0);
    assertThat(((Struct) items.get(0)).get("qty")).isEqualTo(2);
    assertThat(((Struct) items.get(1)).get("price")).isNull();
    assertThat(((Struct) items.get(1)).get("qty")).isEqualTo(1);
  }

  @Test
  void epochNumbersBecomeTimestamps() {
    Schema ts = Timestamp.builder().optional().build();
    assertThat(ValueConformer.conform(1714567890L, ts))
        .isEqualTo(new java.util.Date(1714567890000L));
    assertThat(ValueConformer.conform(1714567890123L, ts))
        .isEqualTo(new java.util.Date(1714567890123L));
    assertThat(ValueConformer.conform(1714567890.5, ts))
        .isEqualTo(new java.util.Date(1714567890500L));
    assertThat(ValueConformer.conform("2024-05-01", ts))
        .isEqualTo(new java.util.Date(1714521600000L));
  }

  @Test
  void conflictStringsAcceptAnyScalarOrJsonText() {
    Schema s = Schema.OPTIONAL_STRING_SCHEMA;
    assertThat(ValueConformer.conform(5L, s)).isEqualTo("5");
    assertThat(ValueConformer.conform(true, s)).isEqualTo("true");
    assertThat(ValueConformer.conform(2.5, s)).isEqualTo("2.5");
    assertThat(ValueConformer.conform(obj("a", 1L, "b", List.of("x")), s))
        .isEqualTo("{\"a\":1,\"b\":[\"x\"]}");
  }

  @Test
  void otherLogicalTypes() {
    assertThat(ValueConformer.conform("1.50", Decimal.schema(2))).isEqualTo(new BigDecimal("1.50"));
    assertThat(ValueConformer.conform(3L, Decimal.schema(2))).isEqualTo(new BigDecimal("3.00"));
    assertThat(ValueConformer.conform("12:00:01.5", Time.SCHEMA))
        .isEqualTo(new java.util.Date(43_201_500L));
    assertThatThrownBy(() -> ValueConformer.conform("1.505", Decimal.schema(2)))
        .hasMessage("(root): expected decimal(scale 2), got string \"1.505\"");
  }

  @Test
  void structInputIsReshapedByFieldName() {
    Schema small = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();
    Struct in = new Struct(small).put("id", 9L);
    assertThat(ValueConformer.conform(in, small)).isSameAs(in);
    Struct out = (Struct) ValueConformer.conform(in, ORDER);
    assertThat(out.schema()).isSameAs(ORDER);
    assertThat(out.get("id")).isEqualTo(9L);
  }

  @Test
  void failureMessagesNameTheFieldPath() {
    List<Object> items =
        List.of(obj("qty", 1L), obj("qty", 1L), obj("qty", 1L), obj("price", "abc", "qty", 1L));
    assertThatThrownBy(() -> ValueConformer.conform(obj("id", 1L, "items", items), ORDER))
        .isInstanceOf(DataException.class)
        .hasMessage("items[3].price: expected double, got string \"abc\"");
    assertThatThrownBy(() -> ValueConformer.conform(obj("items", List.of()), ORDER))
        .hasMessage("id: required value is missing");
    assertThatThrownBy(
            () -> ValueConformer.conform(obj("id", 1L, "items", List.of(obj("price", 1.0))), ORDER))
        .hasMessage("items[0].qty: required value is missing");
    assertThatThrownBy(() -> ValueConformer.conform(obj("id", 3_000_000_000L), Schema.INT32_SCHEMA))
        .hasMessage("(root): expected int32, got object");
    assertThatThrownBy(() -> ValueConformer.conform(obj("id", 1.5), ORDER))
        .hasMessage("id: expected int64, got double 1.5");
    assertThatThrownBy(() -> ValueConformer.conform(3_000_000_000L, Schema.INT32_SCHEMA))
        .hasMessage("(root): expected int32, got integer 3000000000");
    assertThatThrownBy(() -> ValueConformer.conform(obj("id", 1L, "extra", 1L), ORDER))
        .hasMessage("extra: field is not in the schema");
    assertThatThrownBy(() -> ValueConformer.conform(obj("id", 1L, "at", "yesterday"), ORDER))
        .hasMessage("at: expected timestamp, got string \"yesterday\"");
    assertThatThrownBy(
            () -> ValueConformer.conform(obj("id", 1L, "day", "2024-05-01T10:00:00Z"), ORDER))
        .hasMessage("day: expected date, got string \"2024-05-01T10:00:00Z\"");
    assertThatThrownBy(() -> ValueConformer.conform(obj("id", 1L, "items", "none"), ORDER))
        .hasMessage("items: expected array, got string \"none\"");
    assertThatThrownBy(() -> ValueConformer.conform("x".repeat(100), Schema.BOOLEAN_SCHEMA))
        .hasMessage("(root): expected boolean, got string \"" + "x".repeat(40) + "...\"");
  }

  @Test
  void integersTakeTheBoxOfTheirSchemaWhenTheyFit() {
    assertThat(ValueConformer.conform(127L, Schema.INT8_SCHEMA)).isEqualTo((byte) 127);
    assertThat(ValueConformer.conform(-128, Schema.INT8_SCHEMA)).isEqualTo((byte) -128);
    assertThat(ValueConformer.conform(-32768L, Schema.INT16_SCHEMA)).isEqualTo((short) -32768);
    assertThat(ValueConformer.conform(Integer.MIN_VALUE, Schema.INT32_SCHEMA))
        .isEqualTo(Integer.MIN_VALUE);
    assertThat(ValueConformer.conform(2_147_483_647L, Schema.INT32_SCHEMA))
        .isEqualTo(2_147_483_647);
    assertThat(ValueConformer.conform(5, Schema.INT64_SCHEMA)).isEqualTo(5L);
    assertThat(ValueConformer.conform(Long.MIN_VALUE, Schema.INT64_SCHEMA))
        .isEqualTo(Long.MIN_VALUE);
    assertThat(ValueConformer.conform((short) 300, Schema.INT16_SCHEMA)).isEqualTo((short) 300);
    assertThat(ValueConformer.conform(new java.math.BigInteger("40"), Schema.INT8_SCHEMA))
        .isEqualTo((byte) 40);
    assertThat(ValueConformer.conform(4.0, Schema.INT32_SCHEMA)).isEqualTo(4);
    assertThatThrownBy(() -> ValueConformer.conform(128L, Schema.INT8_SCHEMA))
        .hasMessage("(root): expected int8, got integer 128");
    assertThatThrownBy(() -> ValueConformer.conform(-32769, Schema.INT16_SCHEMA))
        .hasMessage("(root): expected int16, got integer -32769");
    assertThatThrownBy(() -> ValueConformer.conform(-2_147_483_649L, Schema.INT32_SCHEMA))
        .hasMessage("(root): expected int32, got integer -2147483649");
  }

  @Test
  void mapsConformKeysAndValues() {
    Schema map = SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT64_SCHEMA).build();
    Map<String, Object> in = new HashMap<>();
    in.put("a", 1);
    assertThat(ValueConformer.conform(in, map)).isEqualTo(Map.of("a", 1L));
    in.put("b", "two");
    assertThatThrownBy(() -> ValueConformer.conform(in, map))
        .hasMessage("[b]: expected int64, got string \"two\"");
    assertThat(ValueConformer.conform("x".getBytes(StandardCharsets.UTF_8), Schema.BYTES_SCHEMA))
        .isEqualTo("x".getBytes(StandardCharsets.UTF_8));
  }
}
