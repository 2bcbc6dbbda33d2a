package io.skippr.connect.transforms;

import static io.skippr.connect.transforms.Records.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.ContractStore;
import io.skippr.connect.schema.PipelineId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InferSchemaTest {
  @TempDir Path dir;

  private static InferSchema<SinkRecord> infer(String... props) {
    InferSchema<SinkRecord> smt = new InferSchema.Value<>();
    Map<String, String> config = new HashMap<>();
    for (int i = 0; i < props.length; i += 2) {
      config.put(props[i], props[i + 1]);
    }
    smt.configure(config);
    return smt;
  }

  private static Struct apply(InferSchema<SinkRecord> smt, String topic, Map<String, ?> value) {
    SinkRecord out = smt.apply(Records.value(topic, value));
    assertThat(out.valueSchema()).isSameAs(((Struct) out.value()).schema());
    return (Struct) out.value();
  }

  @Test
  void recordsOfOneShapeShareOneSchemaInstance() {
    InferSchema<SinkRecord> smt = infer();
    Struct a = apply(smt, "t", map("id", 1, "name", "x", "tags", List.of("a")));
    Struct b = apply(smt, "t", map("name", "y", "id", 2, "tags", List.of()));

    assertThat(b.schema()).isSameAs(a.schema());
    assertThat(a.schema().field("id").schema().type()).isEqualTo(Schema.Type.INT32);
    assertThat(b.getInt32("id")).isEqualTo(2);
    assertThat(b.getString("name")).isEqualTo("y");
  }

  @Test
  void nestedObjectsArraysOfStructsAndTimestampsBecomeStructs() {
    Map<String, Object> order =
        map(
            "id",
            7L,
            "created_at",
            "2024-05-01T12:00:00Z",
            "customer",
            map("name", "Ada", "vip", true),
            "items",
            List.of(map("sku", "a", "qty", 1), map("sku", "b", "price", 2.5)));
    Struct out = apply(infer(), "orders", order);

    Schema schema = out.schema();
    assertThat(schema.field("created_at").schema().name()).isEqualTo(Timestamp.LOGICAL_NAME);
    assertThat(out.get("created_at"))
        .isEqualTo(java.util.Date.from(Instant.parse("2024-05-01T12:00:00Z")));
    assertThat(out.getStruct("customer").getBoolean("vip")).isTrue();
    Schema item = schema.field("items").schema().valueSchema();
    assertThat(item.fields()).extracting(f -> f.name()).containsExactly("price", "qty", "sku");
    List<Struct> items = out.getArray("items");
    assertThat(items.get(1).getFloat64("price")).isEqualTo(2.5);
    assertThat(items.get(0).get("price")).isNull();
  }

  @Test
  void newFieldsAndWiderNumbersEvolveTheSchema() {
    InferSchema<SinkRecord> smt = infer();
    Schema first = apply(smt, "t", map("id", 1)).schema();
    Struct wider = apply(smt, "t", map("id", 5_000_000_000L, "note", "n"));
    Struct widest = apply(smt, "t", map("id", 1.5));

    assertThat(wider.schema()).isNotSameAs(first);
    assertThat(wider.schema().field("id").schema().type()).isEqualTo(Schema.Type.INT64);
    assertThat(wider.schema().field("note").schema().isOptional()).isTrue();
    assertThat(widest.schema().field("id").schema().type()).isEqualTo(Schema.Type.FLOAT64);
    assertThat(widest.schema().field("note")).isNotNull();
    assertThat(widest.getFloat64("id")).isEqualTo(1.5);
    // an old shape now fits the evolved schema as it is
    Struct old = apply(smt, "t", map("id", 3));
    assertThat(old.schema()).isSameAs(widest.schema());
    assertThat(old.getFloat64("id")).isEqualTo(3.0);
  }

  @Test
  void aFieldOnlyEverNullTakesTheFirstTypeThatArrives() {
    InferSchema<SinkRecord> smt = infer();
    apply(smt, "t", map("id", 1, "note", null));
    Struct typed = apply(smt, "t", map("id", 2, "note", 42));

    assertThat(typed.schema().field("note").schema().type()).isEqualTo(Schema.Type.INT32);
    assertThat(typed.getInt32("note")).isEqualTo(42);
  }

  @Test
  void aValueThatCannotFitFailsNamingFieldAndReason() {
    InferSchema<SinkRecord> smt = infer();
    apply(smt, "t", map("id", 1, "items", List.of(map("price", 1.5))));

    assertThatThrownBy(() -> apply(smt, "t", map("id", 2, "items", List.of(map("price", "x")))))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("InferSchema: value of topic t")
        .hasMessageContaining("field items[0].price: expected double, got string \"x\"");
    assertThatThrownBy(() -> apply(smt, "t", map("id", map("a", 1))))
        .hasMessageContaining("field id: expected int32, got object");
    // the failed records left the schema as it was
    assertThat(apply(smt, "t", map("id", 3)).schema().field("items")).isNotNull();
  }

  @Test
  void keepsOneSchemaPerTopicOrPerNamespace() {
    InferSchema<SinkRecord> perTopic = infer();
    Struct a = apply(perTopic, "a", map("x", 1));
    Struct b = apply(perTopic, "b", map("x", "text"));
    assertThat(a.schema().field("x").schema().type()).isEqualTo(Schema.Type.INT32);
    assertThat(b.schema().field("x").schema().type()).isEqualTo(Schema.Type.STRING);

    InferSchema<SinkRecord> perNamespace = infer("namespace.fields", "type");
    Struct click = apply(perNamespace, "e", map("type", "click", "v", 1));
    Struct view = apply(perNamespace, "e", map("type", "view", "v", "x"));
    assertThat(click.schema().field("v").schema().type()).isEqualTo(Schema.Type.INT32);
    assertThat(view.schema().field("v").schema().type()).isEqualTo(Schema.Type.STRING);
    assertThatThrownBy(() -> apply(perNamespace, "e", map("type", "click", "v", "y")))
        .hasMessageContaining("topic e (namespace e.click)")
        .hasMessageContaining("v: expected int32, got string");
  }

  @Test
  void startsFromASavedContract() throws Exception {
    Schema contract =
        SchemaBuilder.struct()
            .optional()
            .field("id", Schema.OPTIONAL_INT64_SCHEMA)
            .field("at", Timestamp.builder().optional().build())
            .build();
    ContractStore store = new ContractStore(dir);
    PipelineId id = new PipelineId("acme", "prod", "orders");
    store.save(id, List.of(new Contract("orders", contract)));

    InferSchema<SinkRecord> smt =
        infer("contract.pipeline", "acme/prod/orders", "contract.data.dir", dir.toString());
    Struct out = apply(smt, "orders", map("id", 1, "at", 1_700_000_000_000L));
    assertThat(out.schema()).isEqualTo(contract);
    assertThat(out.getInt64("id")).isEqualTo(1L);
    assertThat(out.get("at")).isEqualTo(new java.util.Date(1_700_000_000_000L));
    Struct evolved = apply(smt, "orders", map("id", 2, "extra", true));
    assertThat(evolved.schema().fields())
        .extracting(f -> f.name())
        .containsExactly("id", "at", "extra");
    assertThatThrownBy(() -> apply(smt, "orders", map("at", "soon")))
        .hasMessageContaining("at: expected timestamp, got string");

    InferSchema<SinkRecord> byFile =
        infer("contract.path", store.path(id).toString(), "contract.namespace", "orders");
    assertThat(apply(byFile, "other-topic", map("id", 3)).schema()).isEqualTo(contract);
    assertThat(Files.exists(store.path(id))).isTrue();
  }

  @Test
  void passesTombstonesAndSchemafulValuesAndRefusesNonObjects() {
    InferSchema<SinkRecord> smt = infer();
    SinkRecord tombstone = Records.value("t", null);
    assertThat(smt.apply(tombstone)).isSameAs(tombstone);
    Schema schema = SchemaBuilder.struct().field("a", Schema.INT32_SCHEMA).build();
    SinkRecord typed = Records.value("t", schema, new Struct(schema).put("a", 1));
    assertThat(smt.apply(typed)).isSameAs(typed);
    assertThatThrownBy(() -> smt.apply(Records.value("t", List.of(1, 2))))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("(root): expected an object, got array");
  }

  @Test
  void theKeyVariantInfersKeys() {
    InferSchema<SinkRecord> smt = new InferSchema.Key<>();
    smt.configure(Map.of());
    SinkRecord in = new SinkRecord("t", 0, null, map("tenant", "a", "id", 9), null, "v", 1L);
    SinkRecord out = smt.apply(in);
    assertThat(((Struct) out.key()).getInt32("id")).isEqualTo(9);
    assertThat(out.keySchema().field("tenant").schema().type()).isEqualTo(Schema.Type.STRING);
    assertThat(out.value()).isEqualTo("v");
  }
}
