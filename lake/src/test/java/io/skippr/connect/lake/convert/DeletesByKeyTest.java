package io.skippr.connect.lake.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.convert.FormatConfig.NullValues;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/**
 * Under write.policy=merge_by_key a tombstone deletes its key whatever behavior.on.null.values
 * says: it is a delete row, holding the key the table is merged on.
 */
class DeletesByKeyTest {
  private static final Schema CUSTOMER =
      SchemaBuilder.struct()
          .name("Customer")
          .field("id", Schema.INT32_SCHEMA)
          .field("name", Schema.STRING_SCHEMA)
          .build();
  private static final Schema KEY =
      SchemaBuilder.struct().name("Key").field("id", Schema.INT32_SCHEMA).build();

  @Test
  void aTombstoneIsADeleteRowByTheRecordKeyWhateverNullValuesSays() {
    for (NullValues configured : NullValues.values()) {
      LakeRowConverter converter =
          new LakeRowConverter(
              Records.config(false, true, configured, "${topic}").deletingByKey(List.of()));
      Struct row =
          converter
              .convert(
                  Records.record(
                      "c", KEY, new Struct(KEY).put("id", 7), CUSTOMER, customer(7, "ann"), 1))
              .row();
      assertThat(row.get("__deleted")).as(configured.name()).isEqualTo(false);
      assertThat(row.schema().field("name").schema().isOptional()).isTrue();
      Struct delete =
          converter
              .convert(Records.record("c", KEY, new Struct(KEY).put("id", 7), null, null, 2))
              .row();
      assertThat(delete.get("__deleted")).as(configured.name()).isEqualTo(true);
      assertThat(delete.getStruct("__key").get("id")).isEqualTo(7);
    }
  }

  @Test
  void aTombstoneTakesTheKeyFieldsFromItsRecordKey() {
    LakeRowConverter converter = new LakeRowConverter(Records.plain().deletingByKey(List.of("id")));
    converter.convert(
        Records.record("c", KEY, new Struct(KEY).put("id", 7), CUSTOMER, customer(7, "a"), 1));
    Struct delete =
        converter
            .convert(Records.record("c", KEY, new Struct(KEY).put("id", 7), null, null, 2))
            .row();
    assertThat(delete.schema().fields()).extracting(Field::name).containsExactly("id", "__deleted");
    assertThat(delete.get("id")).isEqualTo(7);
    assertThat(delete.get("__deleted")).isEqualTo(true);

    Struct byStringKey =
        new LakeRowConverter(Records.plain().deletingByKey(List.of("code")))
            .convert(Records.record("t", null, "X-1", null, null, 3))
            .row();
    assertThat(byStringKey.get("code")).isEqualTo("X-1");

    Map<String, Object> schemalessKey = Map.of("id", 9L);
    Struct byMapKey =
        new LakeRowConverter(Records.plain().deletingByKey(List.of("id")))
            .convert(Records.record("t", null, schemalessKey, null, null, 4))
            .row();
    assertThat(byMapKey.get("id")).as("typed as a schemaless value's field is").isEqualTo(9);
  }

  @Test
  void aTombstoneWhoseKeyLacksAKeyFieldIsRejectedWithItsPosition() {
    LakeRowConverter converter =
        new LakeRowConverter(Records.plain().deletingByKey(List.of("id", "region")));
    assertThatThrownBy(
            () ->
                converter.convert(
                    Records.record("c", KEY, new Struct(KEY).put("id", 7), null, null, 5)))
        .isInstanceOf(RecordRejectedException.class)
        .hasMessageContaining("topic c partition 2 offset 5")
        .hasMessageContaining("does not hold the key field region of merge.key.fields");
    assertThatThrownBy(() -> converter.convert(Records.record("c", null, null, null, null, 6)))
        .isInstanceOf(RecordRejectedException.class)
        .hasMessageContaining("its record key (null)");
  }

  @Test
  void rowsThatBringTheirOwnDeletedKeepItAndATombstoneWritesItInTheirType() {
    Schema unwrapped =
        SchemaBuilder.struct()
            .field("id", Schema.INT32_SCHEMA)
            .field("__deleted", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    LakeRowConverter converter = new LakeRowConverter(Records.plain().deletingByKey(List.of("id")));
    Struct row =
        converter
            .convert(
                Records.record(
                    "c",
                    KEY,
                    new Struct(KEY).put("id", 3),
                    unwrapped,
                    new Struct(unwrapped).put("id", 3).put("__deleted", "false"),
                    1))
            .row();
    assertThat(row.schema().fields()).extracting(Field::name).containsExactly("id", "__deleted");
    assertThat(row.get("__deleted")).isEqualTo("false");
    Struct delete =
        converter
            .convert(Records.record("c", KEY, new Struct(KEY).put("id", 3), null, null, 2))
            .row();
    assertThat(delete.get("id")).isEqualTo(3);
    assertThat(delete.get("__deleted")).isEqualTo("true");
    assertThat(converter.tableSchema("c").field("__deleted").schema().type())
        .isEqualTo(Schema.Type.STRING);
  }

  private static Struct customer(int id, String name) {
    return new Struct(CUSTOMER).put("id", id).put("name", name);
  }
}
