package io.skippr.connect.schema;

import static io.skippr.connect.schema.Samples.NULL_ONLY;
import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.api.Test;

class SchemaEvolutionTest {

  private static Schema item(Schema price) {
    SchemaBuilder b = SchemaBuilder.struct().optional().field("sku", Schema.STRING_SCHEMA);
    return price == null ? b.build() : b.field("price", price).build();
  }

  private static Schema order(Schema itemSchema, Schema extra) {
    SchemaBuilder b =
        SchemaBuilder.struct()
            .field("id", Schema.INT32_SCHEMA)
            .field("at", Timestamp.SCHEMA)
            .field("items", SchemaBuilder.array(itemSchema).optional().build())
            .field(
                "attrs",
                SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_INT32_SCHEMA)
                    .optional()
                    .build());
    return extra == null ? b.build() : b.field("extra", extra).build();
  }

  @Test
  void identicalSchemaReturnsTheCurrentInstance() {
    Schema current = order(item(null), null);
    Schema incoming = order(item(null), null);
    assertThat(SchemaEvolution.evolve(current, incoming)).containsSame(current);
    assertThat(SchemaEvolution.isCompatibleWithoutChange(current, incoming)).isTrue();
  }

  @Test
  void addsOptionalFieldsAtAnyDepth() {
    Schema current = order(item(null), null);
    Schema incoming = order(item(Schema.OPTIONAL_FLOAT64_SCHEMA), Schema.OPTIONAL_STRING_SCHEMA);
    assertThat(SchemaEvolution.evolve(current, incoming))
        .contains(order(item(Schema.OPTIONAL_FLOAT64_SCHEMA), Schema.OPTIONAL_STRING_SCHEMA));
  }

  @Test
  void fieldsAbsentFromIncomingAreKeptWhenOptional() {
    Schema current = order(item(Schema.OPTIONAL_FLOAT64_SCHEMA), Schema.OPTIONAL_STRING_SCHEMA);
    Schema incoming = order(item(null), null);
    assertThat(SchemaEvolution.evolve(current, incoming)).containsSame(current);
  }

  @Test
  void newFieldsAreAppendedAfterExistingOnes() {
    Schema current = SchemaBuilder.struct().field("b", Schema.INT32_SCHEMA).build();
    Schema incoming =
        SchemaBuilder.struct()
            .field("a", Schema.OPTIONAL_STRING_SCHEMA)
            .field("b", Schema.INT32_SCHEMA)
            .build();
    assertThat(SchemaEvolution.evolve(current, incoming))
        .contains(
            SchemaBuilder.struct()
                .field("b", Schema.INT32_SCHEMA)
                .field("a", Schema.OPTIONAL_STRING_SCHEMA)
                .build());
  }

  @Test
  void widensNumbers() {
    Schema current = order(item(Schema.OPTIONAL_INT32_SCHEMA), null);
    assertThat(SchemaEvolution.evolve(current, order(item(Schema.OPTIONAL_INT64_SCHEMA), null)))
        .contains(order(item(Schema.OPTIONAL_INT64_SCHEMA), null));
    assertThat(SchemaEvolution.evolve(current, order(item(Schema.OPTIONAL_FLOAT64_SCHEMA), null)))
        .contains(order(item(Schema.OPTIONAL_FLOAT64_SCHEMA), null));
    assertThat(SchemaEvolution.evolve(Schema.INT8_SCHEMA, Schema.INT16_SCHEMA))
        .contains(Schema.INT16_SCHEMA);
    assertThat(SchemaEvolution.evolve(Schema.INT64_SCHEMA, Schema.FLOAT64_SCHEMA))
        .contains(Schema.FLOAT64_SCHEMA);
    assertThat(SchemaEvolution.evolve(Schema.FLOAT32_SCHEMA, Schema.FLOAT64_SCHEMA))
        .contains(Schema.FLOAT64_SCHEMA);
    // a narrower incoming value fits the current wider type
    Schema wide = order(item(Schema.OPTIONAL_FLOAT64_SCHEMA), null);
    assertThat(SchemaEvolution.evolve(wide, order(item(Schema.OPTIONAL_INT32_SCHEMA), null)))
        .containsSame(wide);
    Schema map =
        SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_INT64_SCHEMA).optional().build();
    assertThat(
            SchemaEvolution.evolve(
                order(item(null), null),
                SchemaBuilder.struct()
                    .field("attrs", map)
                    .field("at", Timestamp.SCHEMA)
                    .field("id", Schema.INT32_SCHEMA)
                    .build()))
        .map(s -> s.field("attrs").schema())
        .contains(map);
  }

  @Test
  void refusesTypeChanges() {
    assertThat(SchemaEvolution.evolve(Schema.INT64_SCHEMA, Schema.STRING_SCHEMA)).isEmpty();
    assertThat(SchemaEvolution.evolve(Schema.FLOAT64_SCHEMA, Schema.FLOAT32_SCHEMA))
        .contains(Schema.FLOAT64_SCHEMA);
    // float and int32 both fit a double without loss
    assertThat(SchemaEvolution.evolve(Schema.FLOAT32_SCHEMA, Schema.INT32_SCHEMA))
        .contains(Schema.FLOAT64_SCHEMA);
    assertThat(SchemaEvolution.evolve(Schema.INT32_SCHEMA, Schema.FLOAT32_SCHEMA))
        .contains(Schema.FLOAT64_SCHEMA);
    assertThat(SchemaEvolution.evolve(Schema.BOOLEAN_SCHEMA, Schema.INT8_SCHEMA)).isEmpty();
    Schema current = order(item(Schema.OPTIONAL_FLOAT64_SCHEMA), null);
    assertThat(SchemaEvolution.evolve(current, order(item(Schema.OPTIONAL_STRING_SCHEMA), null)))
        .isEmpty();
    Schema arrayOfStrings = SchemaBuilder.array(Schema.STRING_SCHEMA).build();
    assertThat(
            SchemaEvolution.evolve(
                arrayOfStrings, SchemaBuilder.array(Schema.INT32_SCHEMA).build()))
        .isEmpty();
    assertThat(SchemaEvolution.evolve(arrayOfStrings, Schema.STRING_SCHEMA)).isEmpty();
  }

  @Test
  void refusesChangedRequiredness() {
    assertThat(SchemaEvolution.evolve(Schema.INT32_SCHEMA, Schema.OPTIONAL_INT32_SCHEMA)).isEmpty();
    assertThat(SchemaEvolution.evolve(Schema.OPTIONAL_INT32_SCHEMA, Schema.INT32_SCHEMA)).isEmpty();
    Schema current = order(item(null), null);
    // a new required field
    assertThat(SchemaEvolution.evolve(current, order(item(null), Schema.STRING_SCHEMA))).isEmpty();
    // a required field missing from incoming
    Schema withoutId =
        SchemaBuilder.struct()
            .field("at", Timestamp.SCHEMA)
            .field("items", current.field("items").schema())
            .field("attrs", current.field("attrs").schema())
            .build();
    assertThat(SchemaEvolution.evolve(current, withoutId)).isEmpty();
  }

  @Test
  void logicalTypesCompareByNameAndParameters() {
    assertThat(SchemaEvolution.evolve(Timestamp.SCHEMA, Timestamp.builder().build()))
        .contains(Timestamp.SCHEMA);
    assertThat(SchemaEvolution.evolve(Timestamp.SCHEMA, Schema.INT64_SCHEMA)).isEmpty();
    assertThat(SchemaEvolution.evolve(Schema.INT64_SCHEMA, Timestamp.SCHEMA)).isEmpty();
    assertThat(SchemaEvolution.evolve(Date.SCHEMA, Schema.INT32_SCHEMA)).isEmpty();
    assertThat(SchemaEvolution.evolve(Date.SCHEMA, Time.SCHEMA)).isEmpty();
    assertThat(SchemaEvolution.evolve(Decimal.schema(2), Decimal.schema(2)))
        .contains(Decimal.schema(2));
    assertThat(SchemaEvolution.evolve(Decimal.schema(2), Decimal.schema(3))).isEmpty();
    // logical types never widen like their physical types
    assertThat(SchemaEvolution.evolve(Date.SCHEMA, Schema.INT64_SCHEMA)).isEmpty();
    // other named types compare by name too
    Schema zoned = SchemaBuilder.string().name("io.debezium.time.ZonedTimestamp").build();
    assertThat(SchemaEvolution.evolve(zoned, Schema.STRING_SCHEMA)).isEmpty();
  }

  @Test
  void nullOnlyPlaceholders() {
    Schema current =
        SchemaBuilder.struct()
            .optional()
            .field("a", Schema.OPTIONAL_INT64_SCHEMA)
            .field("b", NULL_ONLY)
            .build();
    Schema incoming =
        SchemaBuilder.struct()
            .optional()
            .field("a", NULL_ONLY)
            .field("b", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .build();
    assertThat(SchemaEvolution.evolve(current, incoming))
        .contains(
            SchemaBuilder.struct()
                .optional()
                .field("a", Schema.OPTIONAL_INT64_SCHEMA)
                .field("b", Schema.OPTIONAL_FLOAT64_SCHEMA)
                .build());
    // a null-only placeholder does not fit a required field
    assertThat(SchemaEvolution.evolve(Schema.INT64_SCHEMA, NULL_ONLY)).isEmpty();
  }
}
