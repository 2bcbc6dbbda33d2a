package io.skippr.connect.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Connect values the differential tests once wrote differently from Kafka, kept as cases. */
class WriteRegressionsTest {

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aNullKeyAndANullStringKeyShareOneField(boolean schemas) {
    Schema schema = SchemaBuilder.map(Schema.OPTIONAL_STRING_SCHEMA, Schema.BOOLEAN_SCHEMA).build();
    Map<String, Boolean> map = new HashMap<>();
    map.put(null, false);
    map.put("null", true);
    map.put("a", true);

    byte[] bytes = Differential.fresh(Setup.of(schemas)).write(schema, map);

    assertThat(new String(bytes, StandardCharsets.UTF_8)).containsOnlyOnce("\"null\":");
  }

  @Test
  void decimalKeysUnderAStringKeySchemaNameAreTheirJsonText() {
    Schema key = SchemaBuilder.string().name(Decimal.LOGICAL_NAME).build();
    Schema schema = SchemaBuilder.map(key, Schema.INT32_SCHEMA).build();
    Differential.fresh(Setup.of(true)).write(schema, Map.of("x", 1));
  }

  @ParameterizedTest
  @ValueSource(strings = {"BASE64", "NUMERIC"})
  void theEnvelopeHasItsColonWhateverThePayload(String format) {
    Setup setup = Setup.of(true).withDecimalFormat(DecimalFormat.valueOf(format));
    Differential pair = Differential.fresh(setup);
    Schema decimal = Decimal.schema(2);
    Schema struct = SchemaBuilder.struct().field("d", decimal).build();

    pair.write(Schema.BOOLEAN_SCHEMA, true);
    pair.write(null, 0L);
    pair.write(null, List.of());
    pair.write(decimal, new java.math.BigDecimal("1.25"));
    byte[] bytes =
        pair.write(struct, new Struct(struct).put("d", new java.math.BigDecimal("-0.50")));
    pair.read(bytes);
  }
}
