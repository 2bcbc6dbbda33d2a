package io.skippr.connect.source.http.convert;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The bound that lets a record through without writing it out is never below what JsonConverter
 * with schemas writes (fuzz.tries records: Structs of every column type and schemaless maps, with
 * escapes, control characters and multi-byte text), so no record over the limit slips through.
 */
class RecordBoundFuzzTest {

  private static final String[] TEXT = {
    "", "a", "\"", "\\", "\u0001", "\n", "\u00e9", "\u20ac", "\uD83D\uDE80", "\u007f", "x y"
  };

  private final JsonConverter json = new JsonConverter();

  RecordBoundFuzzTest() {
    json.configure(Map.of("schemas.enable", "true"), false);
  }

  @Property
  void theUpperBoundIsNeverBelowTheWrittenSize(@ForAll("records") SourceRecord record) {
    long written =
        json.fromConnectData(record.topic(), record.valueSchema(), record.value()).length;
    written += record.key() == null ? 0 : utf8(record.key().toString());
    for (var h : record.headers()) {
      written += utf8(h.key()) + utf8(String.valueOf(h.value()));
    }
    assertThat(RecordBound.upperBound(record))
        .as(record.toString())
        .isGreaterThanOrEqualTo(written);
  }

  @Provide
  Arbitrary<SourceRecord> records() {
    return Arbitraries.randomValue(
        r -> {
          ConnectHeaders headers = new ConnectHeaders();
          if (r.nextBoolean()) {
            headers.addString("database", text(r));
          }
          String key = r.nextBoolean() ? null : text(r);
          if (r.nextBoolean()) {
            Map<String, Object> map = map(r, 0);
            return new SourceRecord(null, null, "t", null, null, key, null, map, 0L, headers);
          }
          SchemaBuilder b = SchemaBuilder.struct().name("m").field("time", Timestamp.SCHEMA);
          int columns = r.nextInt(8);
          for (int i = 0; i < columns; i++) {
            b.field(text(r) + i, pick(r));
          }
          Schema schema = b.build();
          Struct value = new Struct(schema).put("time", new Date(r.nextLong()));
          for (var f : schema.fields().subList(1, schema.fields().size())) {
            value.put(f, r.nextInt(4) == 0 ? null : valueOf(f.schema(), r));
          }
          return new SourceRecord(null, null, "t", null, null, key, schema, value, 0L, headers);
        });
  }

  private static Schema pick(Random r) {
    return switch (r.nextInt(4)) {
      case 0 -> Schema.OPTIONAL_STRING_SCHEMA;
      case 1 -> Schema.OPTIONAL_INT64_SCHEMA;
      case 2 -> Schema.OPTIONAL_FLOAT64_SCHEMA;
      default -> Schema.OPTIONAL_BOOLEAN_SCHEMA;
    };
  }

  private static Object valueOf(Schema schema, Random r) {
    return switch (schema.type()) {
      case STRING -> text(r);
      case INT64 -> r.nextLong();
      case FLOAT64 -> r.nextDouble() * Math.pow(10, r.nextInt(600) - 300);
      default -> r.nextBoolean();
    };
  }

  private static Map<String, Object> map(Random r, int depth) {
    Map<String, Object> map = new LinkedHashMap<>();
    int n = r.nextInt(5);
    for (int i = 0; i < n; i++) {
      Object v =
          switch (r.nextInt(depth > 2 ? 4 : 6)) {
            case 0 -> text(r);
            case 1 -> r.nextLong();
            case 2 -> -r.nextDouble() * 1e-300;
            case 3 -> null;
            case 4 -> map(r, depth + 1);
            default -> {
              List<Object> list = new ArrayList<>();
              for (int k = r.nextInt(3); k > 0; k--) {
                list.add(text(r));
              }
              yield list;
            }
          };
      map.put(text(r) + i, v);
    }
    return map;
  }

  private static String text(Random r) {
    StringBuilder sb = new StringBuilder();
    for (int i = r.nextInt(12); i > 0; i--) {
      sb.append(TEXT[r.nextInt(TEXT.length)]);
    }
    return sb.toString();
  }

  private static long utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
