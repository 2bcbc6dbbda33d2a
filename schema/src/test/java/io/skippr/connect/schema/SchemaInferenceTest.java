package io.skippr.connect.schema;

import static io.skippr.connect.schema.Samples.NULL_ONLY;
import static io.skippr.connect.schema.Samples.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class SchemaInferenceTest {
  private static final Schema TS = Timestamp.builder().optional().build();
  private static final Schema DATE = Date.builder().optional().build();

  private static Schema conflict(String seen) {
    return SchemaBuilder.string()
        .optional()
        .parameter("io.skippr.connect.schema.conflict", seen)
        .build();
  }

  @Test
  void primitives() {
    assertThat(SchemaInference.infer(true)).isEqualTo(Schema.OPTIONAL_BOOLEAN_SCHEMA);
    assertThat(SchemaInference.infer(7L)).isEqualTo(Schema.OPTIONAL_INT32_SCHEMA);
    assertThat(SchemaInference.infer(7)).isEqualTo(Schema.OPTIONAL_INT32_SCHEMA);
    assertThat(SchemaInference.infer(2147483647L)).isEqualTo(Schema.OPTIONAL_INT32_SCHEMA);
    assertThat(SchemaInference.infer(-2147483648L)).isEqualTo(Schema.OPTIONAL_INT32_SCHEMA);
    assertThat(SchemaInference.infer(2147483648L)).isEqualTo(Schema.OPTIONAL_INT64_SCHEMA);
    assertThat(SchemaInference.infer(-2147483649L)).isEqualTo(Schema.OPTIONAL_INT64_SCHEMA);
    assertThat(SchemaInference.infer(1.5)).isEqualTo(Schema.OPTIONAL_FLOAT64_SCHEMA);
    assertThat(SchemaInference.infer("hello")).isEqualTo(Schema.OPTIONAL_STRING_SCHEMA);
    assertThat(SchemaInference.infer(null)).isEqualTo(NULL_ONLY);
    assertThat(SchemaInference.infer(new byte[] {1})).isEqualTo(Schema.OPTIONAL_BYTES_SCHEMA);
  }

  @Test
  void isoStringsBecomeDatesAndTimestamps() {
    assertThat(SchemaInference.infer("2024-05-01")).isEqualTo(DATE);
    assertThat(SchemaInference.infer("2024-05-01T12:30:00Z")).isEqualTo(TS);
    assertThat(SchemaInference.infer("2024-05-01T12:30:00.123+02:00")).isEqualTo(TS);
    assertThat(SchemaInference.infer("2024-05-01 12:30:00")).isEqualTo(TS);
    assertThat(SchemaInference.infer("2024-05-01T12:30")).isEqualTo(TS);
    // not dates: invalid day, trailing text, other shapes
    assertThat(SchemaInference.infer("2024-02-30")).isEqualTo(Schema.OPTIONAL_STRING_SCHEMA);
    assertThat(SchemaInference.infer("2024-05-01x")).isEqualTo(Schema.OPTIONAL_STRING_SCHEMA);
    assertThat(SchemaInference.infer("2024-05-01T25:00:00Z"))
        .isEqualTo(Schema.OPTIONAL_STRING_SCHEMA);
    assertThat(SchemaInference.infer("01/05/2024")).isEqualTo(Schema.OPTIONAL_STRING_SCHEMA);
    assertThat(SchemaInference.infer("12:30:00")).isEqualTo(Schema.OPTIONAL_STRING_SCHEMA);
  }

  @Test
  void epochNumbersAreTimestampsOnlyUnderTimeLikeNamesAndInRange() {
    Schema schema =
        SchemaInference.infer(
            obj(
                "ts", 1714567890L,
                "created_at", 1714567890123L,
                "eventTime", 1714567890.5,
                "updatedAt", 1714567890,
                "time_ms", 1714567890123L,
                "count", 1714567890L,
                "ts_small", 12L,
                "at", 1714567890L,
                "timestamp", 99999999999999L));
    Schema expected =
        SchemaBuilder.struct()
            .optional()
            .field("at", Schema.OPTIONAL_INT32_SCHEMA)
            .field("count", Schema.OPTIONAL_INT32_SCHEMA)
            .field("created_at", TS)
            .field("eventTime", TS)
            .field("time_ms", TS)
            .field("timestamp", Schema.OPTIONAL_INT64_SCHEMA)
            .field("ts", TS)
            .field("ts_small", Schema.OPTIONAL_INT32_SCHEMA)
            .field("updatedAt", TS)
            .build();
    assertThat(schema).isEqualTo(expected);
  }

  @Test
  void nestedObjectsAndArrays() {
    Object value =
        obj(
            "id", 1L,
            "customer", obj("name", "Ann", "address", obj("zip", "1000")),
            "tags", List.of("a", "b"),
            "empty", List.of(),
            "items", List.of(obj("sku", "x", "qty", 1L), obj("sku", "y", "price", 2.5)));
    Schema item =
        SchemaBuilder.struct()
            .optional()
            .field("price", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .field("qty", Schema.OPTIONAL_INT32_SCHEMA)
            .field("sku", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    Schema expected =
        SchemaBuilder.struct()
            .optional()
            .field(
                "customer",
                SchemaBuilder.struct()
                    .optional()
                    .field(
                        "address",
                        SchemaBuilder.struct()
                            .optional()
                            .field("zip", Schema.OPTIONAL_STRING_SCHEMA)
                            .build())
                    .field("name", Schema.OPTIONAL_STRING_SCHEMA)
                    .build())
            .field("empty", SchemaBuilder.array(NULL_ONLY).optional().build())
            .field("id", Schema.OPTIONAL_INT32_SCHEMA)
            .field("items", SchemaBuilder.array(item).optional().build())
            .field("tags", SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA).optional().build())
            .build();
    assertThat(SchemaInference.infer(value)).isEqualTo(expected);
    assertThat(SchemaMarkers.flags(expected))
        .containsExactly(new SchemaFlag("empty[]", SchemaFlag.Kind.NULL_ONLY, ""));
  }

  @Test
  void nullOnlyFieldIsFlaggedAndTakesTheTypeOfALaterValue() {
    MergeResult first = SchemaInference.inferAll(List.of(obj("a", null), obj("a", null)));
    assertThat(first.schema())
        .isEqualTo(SchemaBuilder.struct().optional().field("a", NULL_ONLY).build());
    assertThat(first.flags()).containsExactly(new SchemaFlag("a", SchemaFlag.Kind.NULL_ONLY, ""));

    MergeResult later = SchemaInference.inferAll(List.of(obj("a", null), obj("a", 5L)));
    assertThat(later.schema())
        .isEqualTo(
            SchemaBuilder.struct().optional().field("a", Schema.OPTIONAL_INT32_SCHEMA).build());
    assertThat(later.flags()).isEmpty();
  }

  @Test
  void numbersWidenIntToLongToDouble() {
    assertThat(merged(1L, 5_000_000_000L)).isEqualTo(Schema.OPTIONAL_INT64_SCHEMA);
    assertThat(merged(5_000_000_000L, 1.5)).isEqualTo(Schema.OPTIONAL_FLOAT64_SCHEMA);
    assertThat(merged(1L, 1.5)).isEqualTo(Schema.OPTIONAL_FLOAT64_SCHEMA);
    assertThat(merged(1.5, 1L)).isEqualTo(Schema.OPTIONAL_FLOAT64_SCHEMA);
    assertThat(SchemaInference.merge(Schema.INT32_SCHEMA, Schema.INT32_SCHEMA).schema())
        .isEqualTo(Schema.OPTIONAL_INT32_SCHEMA);
    assertThat(merged("2024-05-01", "2024-05-01T00:00:00Z")).isEqualTo(TS);
  }

  @Test
  void otherConflictsBecomeFlaggedStrings() {
    MergeResult result =
        SchemaInference.inferAll(
            List.of(obj("v", 1L, "w", true), obj("v", "x", "w", obj("a", 1L)), obj("v", 2.5)));
    Schema expected =
        SchemaBuilder.struct()
            .optional()
            .field("v", conflict("double,int32,string"))
            .field("w", conflict("boolean,struct"))
            .build();
    assertThat(result.schema()).isEqualTo(expected);
    assertThat(result.hasConflicts()).isTrue();
    assertThat(result.flags())
        .containsExactly(
            new SchemaFlag("v", SchemaFlag.Kind.TYPE_CONFLICT, "double,int32,string"),
            new SchemaFlag("w", SchemaFlag.Kind.TYPE_CONFLICT, "boolean,struct"));
    // a conflict string merged with a plain string keeps its flag
    assertThat(
            SchemaInference.merge(conflict("int32,string"), Schema.OPTIONAL_STRING_SCHEMA).schema())
        .isEqualTo(conflict("int32,string"));
    assertThat(merged("2024-05-01T00:00:00Z", 5L)).isEqualTo(conflict("int32,timestamp"));
    assertThat(merged(List.of(1L), obj("a", 1L))).isEqualTo(conflict("array,struct"));
  }

  @Test
  void conflictsInsideArraysCarryTheElementPath() {
    MergeResult result =
        SchemaInference.inferAll(List.of(obj("items", List.of(obj("p", 1L), obj("p", "one")))));
    assertThat(result.flags())
        .containsExactly(
            new SchemaFlag("items[].p", SchemaFlag.Kind.TYPE_CONFLICT, "int32,string"));
  }

  @Test
  void sameSampleInAnyOrderGivesTheSameSchema() {
    List<Object> sample = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      Map<String, Object> row = new HashMap<>();
      row.put("id", (long) i * 100_000_000L);
      row.put("f" + (i % 7), i % 2 == 0 ? "s" + i : (Object) (long) i);
      row.put("nested", obj("k" + (i % 3), i % 4 == 0 ? null : 1.5));
      row.put("list", List.of(obj("x" + (i % 5), (long) i)));
      row.put("when", i % 3 == 0 ? "2024-05-01" : "2024-05-01T10:00:00Z");
      sample.add(row);
    }
    Schema reference = SchemaInference.inferAll(sample).schema();
    Random random = new Random(42);
    for (int round = 0; round < 50; round++) {
      List<Object> shuffled = new ArrayList<>();
      for (Object row : sample) {
        List<Map.Entry<String, Object>> entries =
            new ArrayList<>(((Map<String, Object>) row).entrySet());
        Collections.shuffle(entries, random);
        Map<String, Object> reordered = new LinkedHashMap<>();
        entries.forEach(e -> reordered.put(e.getKey(), e.getValue()));
        shuffled.add(reordered);
      }
      Collections.shuffle(shuffled, random);
      assertThat(SchemaInference.inferAll(shuffled).schema()).isEqualTo(reference);
    }
    assertThat(reference.fields().stream().map(f -> f.name()).toList())
        .isEqualTo(
            Arrays.asList(
                "f0", "f1", "f2", "f3", "f4", "f5", "f6", "id", "list", "nested", "when"));
    assertThat(reference.field("id").schema()).isEqualTo(Schema.OPTIONAL_INT64_SCHEMA);
    assertThat(reference.field("when").schema()).isEqualTo(TS);
    assertThat(reference.field("f0").schema()).isEqualTo(conflict("int32,string"));
  }

  @Test
  void mapsWithNonStringKeysBecomeMaps() {
    Map<Object, Object> map = new HashMap<>();
    map.put(1L, "a");
    map.put(2L, "b");
    assertThat(SchemaInference.infer(map))
        .isEqualTo(
            SchemaBuilder.map(Schema.OPTIONAL_INT32_SCHEMA, Schema.OPTIONAL_STRING_SCHEMA)
                .optional()
                .build());
  }

  @Test
  void unknownValueTypesAreRefused() {
    assertThatThrownBy(() -> SchemaInference.infer(new Object()))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("java.lang.Object");
  }

  private static Schema merged(Object a, Object b) {
    return SchemaInference.merge(SchemaInference.infer(a), SchemaInference.infer(b)).schema();
  }
}
