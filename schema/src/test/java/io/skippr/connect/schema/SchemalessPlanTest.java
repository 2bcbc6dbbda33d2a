package io.skippr.connect.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

/**
 * The fast path must give exactly what the general path (fit, then conform) gives for values that
 * fit the schema as they are, and hand everything else back to it.
 */
class SchemalessPlanTest {
  private static final String[] KEYS = {
    "id", "name", "amount", "qty", "active", "ts", "day", "ship", "tags", "note", "price", "raw"
  };

  @Test
  void typicalRowsTakeTheFastPathWithTheValuesTheGeneralPathGives() {
    Schema schema = inferred(row(1L, "ann", 2.5, 3L, true, 1_767_225_600_000L, "DE"));
    SchemalessPlan plan = SchemalessPlan.of(schema);

    Map<String, Object> value = row(2L, "bob", 7.0, 4L, false, 1_767_225_600_123L, "FR");
    Struct fast = plan.conform(value);

    assertThat(fast).isNotNull();
    assertThat(fast.schema()).isSameAs(schema);
    assertThat(fast.get("id")).isEqualTo(2);
    assertThat(fast.get("qty")).isEqualTo(4);
    assertThat(fast.get("amount")).isEqualTo(7.0);
    assertThat(fast.get("ts")).isEqualTo(new java.util.Date(1_767_225_600_123L));
    assertThat(fast.getStruct("ship").get("country")).isEqualTo("FR");
    assertThat(fast.getStruct("ship").get("zone")).isEqualTo(5);
    assertThat(fast.get("note")).isNull();
    assertThat(fast.getArray("tags")).containsExactly(2, 4);
    assertThat(fast).isEqualTo(general(schema, value));
  }

  @Test
  void valuesThatEvolveTheSchemaOrAreRejectedGoToTheGeneralPath() {
    Schema schema = inferred(row(1L, "ann", 2.5, 3L, true, 1_767_225_600_000L, "DE"));
    SchemalessPlan plan = SchemalessPlan.of(schema);

    assertThat(plan.conform(with(row(2L, "b", 1.0, 1L, true, 0L, "FR"), "extra", 1))).isNull();
    assertThat(plan.conform(with(row(2L, "b", 1.0, 1L, true, 0L, "FR"), "id", 5_000_000_000L)))
        .isNull();
    assertThat(plan.conform(with(row(2L, "b", 1.0, 1L, true, 0L, "FR"), "qty", 1.5))).isNull();
    assertThat(plan.conform(with(row(2L, "b", 1.0, 1L, true, 0L, "FR"), "name", 3))).isNull();
    assertThat(plan.conform(with(row(2L, "b", 1.0, 1L, true, 0L, "FR"), "note", "now set")))
        .isNull();
    assertThat(plan.conform(with(row(2L, "b", 1.0, 1L, true, 0L, "FR"), "ts", "yesterday")))
        .isNull();
    Map<Object, Object> numberKey = new HashMap<>(row(2L, "b", 1.0, 1L, true, 0L, "FR"));
    numberKey.put(7, "x");
    assertThat(plan.conform(numberKey)).isNull();
  }

  @Test
  void schemasWithRequiredFieldsOrDefaultsHaveNoFastPath() {
    Schema required = SchemaBuilder.struct().field("a", Schema.INT32_SCHEMA).build();
    Schema withDefault =
        SchemaBuilder.struct().field("a", SchemaBuilder.int32().optional().defaultValue(4)).build();

    assertThat(SchemalessPlan.of(required)).isNull();
    assertThat(SchemalessPlan.of(withDefault)).isNull();
    assertThat(SchemalessPlan.of(Schema.OPTIONAL_STRING_SCHEMA)).isNull();
  }

  @Test
  void randomValuesGetWhatTheGeneralPathGivesOrGoToIt() {
    Random random = new Random(42);
    int fast = 0;
    int cases = 0;
    for (int s = 0; s < 12; s++) {
      Schema schema = evolved(random);
      SchemalessPlan plan = SchemalessPlan.of(schema);
      assertThat(plan).isNotNull();
      for (int i = 0; i < 400; i++) {
        Map<Object, Object> value = randomMap(random, 0);
        Struct expected = general(schema, value);
        // The same plan twice: the second walk meets the keys it remembers by position.
        for (int pass = 0; pass < 2; pass++) {
          Struct actual = plan.conform(value);
          cases++;
          if (expected == null) {
            assertThat(actual).as("%s against %s", value, schema).isNull();
          } else if (actual != null) {
            fast++;
            assertThat(actual).as("%s", value).isEqualTo(expected);
            assertThat(actual.schema()).isSameAs(schema);
          }
        }
      }
    }
    // Most random values are bad or new somewhere; a good share must still be taken fast.
    assertThat(fast).isGreaterThan(cases / 10);
  }

  /** What the general path gives when the value fits the schema as it is, else null. */
  private static Struct general(Schema schema, Map<?, ?> value) {
    try {
      if (value.keySet().stream().anyMatch(k -> !(k instanceof String))) {
        return null; // the converter makes such a map a single column
      }
      if (SchemalessFit.fit(schema, value, "", null) != schema) {
        return null;
      }
      return (Struct) ValueConformer.conform(value, schema);
    } catch (DataException e) {
      return null;
    }
  }

  private static Schema inferred(Map<String, Object> value) {
    return Schemas.withOptional(SchemaInference.infer(value), false);
  }

  /** A schema grown the way the converter grows it: inferred, then fitted to more values. */
  private static Schema evolved(Random random) {
    Map<Object, Object> first = randomMap(random, 0);
    first.keySet().removeIf(k -> !(k instanceof String));
    Schema schema = Schemas.withOptional(SchemaInference.infer(first), false);
    for (int i = 0; i < 6; i++) {
      Map<Object, Object> value = randomMap(random, 0);
      if (general(schema, value) == null) {
        try {
          schema = SchemalessFit.fit(schema, value, "", null);
          ValueConformer.conform(value, schema);
        } catch (DataException e) {
          // a bad value leaves the schema as it was
        }
      }
    }
    return schema;
  }

  private static Map<Object, Object> randomMap(Random random, int depth) {
    Map<Object, Object> map = random.nextBoolean() ? new HashMap<>() : new LinkedHashMap<>();
    for (String key : KEYS) {
      if (random.nextInt(6) > 0) {
        map.put(key, randomValue(random, key, depth));
      }
    }
    int odd = random.nextInt(40);
    if (odd == 0) {
      map.put("new_" + random.nextInt(3), randomValue(random, "x", depth));
    } else if (odd == 1) {
      map.put(random.nextInt(3), "number key");
    }
    return map;
  }

  private static Object randomValue(Random random, String key, int depth) {
    if (random.nextInt(12) == 0) {
      return null;
    }
    if (random.nextInt(30) == 0) {
      return anyValue(random, depth); // a value of another kind than the field usually has
    }
    return switch (key) {
      case "id" -> random.nextInt(8) == 0 ? (Object) (1L << 40) : (Object) (long) random.nextInt();
      case "name", "note" -> "n" + random.nextInt(100);
      case "amount" -> random.nextInt(4) == 0 ? (Object) 3L : (Object) random.nextDouble();
      case "qty" -> random.nextInt(3) == 0 ? (Object) random.nextInt(50) : (Object) 9L;
      case "active" -> random.nextBoolean();
      case "ts" -> timestamp(random);
      case "day" -> "2026-01-0" + (1 + random.nextInt(9));
      case "ship" -> depth < 2 ? ship(random, depth) : "flat";
      case "tags" -> list(random, depth);
      case "price" -> numberOfAnyKind(random);
      default -> new byte[] {1, 2};
    };
  }

  private static Map<Object, Object> ship(Random random, int depth) {
    Map<Object, Object> ship = new HashMap<>();
    ship.put("country", random.nextInt(10) == 0 ? null : "DE");
    ship.put("zone", random.nextInt(10) == 0 ? (Object) "z" : (Object) (long) random.nextInt(40));
    if (random.nextInt(4) == 0) {
      ship.put("ship", randomValue(random, "ship", depth + 1));
    }
    return ship;
  }

  private static List<Object> list(Random random, int depth) {
    List<Object> list = new ArrayList<>();
    int kind = random.nextInt(6);
    for (int i = random.nextInt(4); i > 0; i--) {
      list.add(
          switch (kind) {
            case 0 -> random.nextInt(8) == 0 ? null : "t" + i;
            case 1 -> random.nextInt(5) == 0 ? (Object) 2.5 : (Object) (long) i;
            case 2 -> depth < 2 ? ship(random, depth + 1) : null;
            case 3 -> List.of("x", "y");
            case 4 -> random.nextInt(8) == 0 ? 7L : "t";
            default -> null;
          });
    }
    return list;
  }

  private static Object timestamp(Random random) {
    return switch (random.nextInt(12)) {
      case 0 -> "2026-01-02T03:04:05Z";
      case 1 -> Double.NaN;
      case 2 -> 1.7672256e9;
      case 3 -> 1_767_225_600;
      case 4 -> "2026-01-02 03:04:05." + random.nextInt(1000) + "+02:00";
      case 5 -> "2026-01-02T03:04:05+0200"; // the formatter's forms, not the scanner's
      case 6 -> "2026-01-02"; // a date in a timestamp field
      case 7 -> "2026-02-30T00:00:00Z"; // no such day: rejected
      default -> 1_767_225_600_000L + random.nextInt();
    };
  }

  private static Object numberOfAnyKind(Random random) {
    return switch (random.nextInt(8)) {
      case 0 -> new BigDecimal("12.50");
      case 1 -> new BigDecimal("1E+3");
      case 2 -> BigInteger.TEN.pow(random.nextInt(30));
      case 3 -> (short) 7;
      case 4 -> 2.5f;
      case 5 -> Double.NaN;
      case 6 -> Long.MAX_VALUE;
      default -> 42;
    };
  }

  private static Object anyValue(Random random, int depth) {
    return switch (random.nextInt(7)) {
      case 0 -> "text";
      case 1 -> 17L;
      case 2 -> 1.25;
      case 3 -> true;
      case 4 -> new ArrayList<>(List.of(1L, 2L));
      case 5 -> depth < 2 ? ship(random, depth + 1) : "deep";
      default -> "2026-03-04";
    };
  }

  private static Map<String, Object> row(
      long id, String name, double amount, long qty, boolean active, long ts, String country) {
    Map<String, Object> row = new HashMap<>();
    row.put("id", id);
    row.put("name", name);
    row.put("amount", amount);
    row.put("qty", qty);
    row.put("active", active);
    row.put("ts", ts);
    row.put("ship", new HashMap<>(Map.of("country", country, "zone", 5L)));
    row.put("note", null);
    row.put("tags", new ArrayList<>(List.of(id, qty)));
    return row;
  }

  private static Map<String, Object> with(Map<String, Object> row, String key, Object value) {
    Map<String, Object> copy = new HashMap<>(row);
    copy.put(key, value);
    return copy;
  }
}
