package io.skippr.connect.lake.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.lake.storage.InMemoryLakeStorage;
import java.io.IOException;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Table schemas as the lake stores them, damaged at random: each reads as the schema that was
 * stored or is refused with a {@link LogFormatException} naming the file; no other schema is
 * accepted, no other exception escapes. Cases per property: {@code fuzz.tries}.
 */
class TableSchemaFuzzTest {
  private final LakeLayout layout = new LakeLayout();

  /** Schemas of up to three levels of structs, arrays and maps over every type the lake stores. */
  @Provide
  Arbitrary<Schema> schemas() {
    return Arbitraries.randomValue(random -> struct(random, 3));
  }

  private static Schema schema(Random random, int depth) {
    int kind = random.nextInt(depth == 0 ? 13 : 16);
    if (kind == 13) {
      return struct(random, depth - 1);
    }
    SchemaBuilder builder =
        switch (kind) {
          case 9 -> SchemaBuilder.type(Schema.Type.INT64).name(Timestamp.LOGICAL_NAME).version(1);
          case 10 -> SchemaBuilder.type(Schema.Type.INT32).name(Date.LOGICAL_NAME).version(1);
          case 11 -> SchemaBuilder.type(Schema.Type.INT32).name(Time.LOGICAL_NAME).version(1);
          case 12 -> Decimal.builder(random.nextInt(13));
          case 14 -> SchemaBuilder.array(schema(random, depth - 1));
          case 15 -> SchemaBuilder.map(Schema.STRING_SCHEMA, schema(random, depth - 1));
          default -> SchemaBuilder.type(PRIMITIVES[kind]);
        };
    return random.nextBoolean() ? builder.optional().build() : builder.build();
  }

  private static final Schema.Type[] PRIMITIVES = {
    Schema.Type.INT8,
    Schema.Type.INT16,
    Schema.Type.INT32,
    Schema.Type.INT64,
    Schema.Type.FLOAT32,
    Schema.Type.FLOAT64,
    Schema.Type.BOOLEAN,
    Schema.Type.STRING,
    Schema.Type.BYTES
  };

  private static Schema struct(Random random, int depth) {
    SchemaBuilder struct = SchemaBuilder.struct();
    int fields = 1 + random.nextInt(4);
    for (int i = 0; i < fields; i++) {
      struct.field(name(random) + "_" + i, schema(random, depth));
    }
    return random.nextBoolean() ? struct.optional().build() : struct.build();
  }

  /** A field name of any characters but surrogates. */
  private static String name(Random random) {
    StringBuilder name = new StringBuilder();
    int length = random.nextInt(6);
    for (int i = 0; i < length; i++) {
      name.append((char) random.nextInt(0xd800));
    }
    return name.toString();
  }

  @Provide
  Arbitrary<Mutations> mutations() {
    return Mutations.any();
  }

  private String stored(InMemoryLakeStorage storage, Schema schema) {
    new TableSchemaLog(storage, layout).propose("orders", 0, schema);
    return layout.schemaKey("orders", 1);
  }

  @Property
  void aStoredSchemaReadsAsItWasStored(@ForAll("schemas") Schema schema) throws IOException {
    InMemoryLakeStorage storage = new InMemoryLakeStorage();
    String key = stored(storage, schema);

    assertThat(new TableSchemaLog(storage, layout).read(key)).isEqualTo(schema);
    assertThat(new TableSchemaLog(storage, layout).current("orders").orElseThrow().schema())
        .isEqualTo(schema);
  }

  @Property
  void aDamagedSchemaIsRefusedOrReadsAsStored(
      @ForAll("schemas") Schema schema, @ForAll("mutations") Mutations damage) throws IOException {
    InMemoryLakeStorage storage = new InMemoryLakeStorage();
    String key = stored(storage, schema);
    byte[] damaged = damage.apply(storage.read(key));
    storage.delete(key);
    storage.createIfAbsent(key, damaged);

    Schema read;
    try {
      read = new TableSchemaLog(storage, layout).read(key);
    } catch (LogFormatException e) {
      assertThat(e.getMessage()).startsWith("table schema " + storage.location() + key + " ");
      return;
    }
    assertThat(read).isEqualTo(schema);
  }
}
