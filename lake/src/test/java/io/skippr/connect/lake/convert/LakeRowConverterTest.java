package io.skippr.connect.lake.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.convert.FormatConfig.NullValues;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class LakeRowConverterTest {
  private static final Schema V1 =
      SchemaBuilder.struct()
          .name("Order")
          .field("id", Schema.INT32_SCHEMA)
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  @Test
  void structRowsHoldValueFieldsThenKeyThenTheOriginalKafkaPosition() {
    LakeRowConverter converter =
        new LakeRowConverter(Records.config(true, true, NullValues.IGNORE, "${topic}"));
    // A transform renamed the topic and moved the record; metadata keeps where it came from.
    SinkRecord record =
        new SinkRecord(
            "orders-routed",
            5,
            Schema.STRING_SCHEMA,
            "k1",
            V1,
            new Struct(V1).put("id", 7).put("name", "ann"),
            99,
            1_700_000_000_123L,
            TimestampType.CREATE_TIME,
            List.of(),
            "orders",
            2,
            1234);

    LakeRow row = converter.convert(record);

    assertThat(row.table()).isEqualTo("orders-routed");
    assertThat(row.row().schema().fields())
        .extracting(Field::name)
        .containsExactly(
            "id", "name", "__key", "__topic", "__partition", "__offset", "__timestamp");
    assertThat(row.row().get("id")).isEqualTo(7);
    assertThat(row.row().get("name")).isEqualTo("ann");
    assertThat(row.row().get("__key")).isEqualTo("k1");
    assertThat(row.row().get("__topic")).isEqualTo("orders");
    assertThat(row.row().get("__partition")).isEqualTo(2);
    assertThat(row.row().get("__offset")).isEqualTo(1234L);
    assertThat(row.row().get("__timestamp")).isEqualTo(new java.util.Date(1_700_000_000_123L));
    assertThat(row.row().schema().field("__key").schema().isOptional()).isTrue();
  }

  @Test
  void withoutExtraColumnsAStructValueIsTheRowItself() {
    Struct value = new Struct(V1).put("id", 1);
    LakeRow row = new LakeRowConverter(Records.plain()).convert(Records.value("t", V1, value, 0));

    assertThat(row.row()).isSameAs(value);
    assertThat(row.row().schema().fields()).extracting(Field::name).containsExactly("id", "name");
  }

  @Test
  void optionalAndRequiredStructValuesShareATable() {
    LakeRowConverter converter = new LakeRowConverter(Records.plain());
    Schema optionalV1 =
        SchemaBuilder.struct()
            .optional()
            .field("id", Schema.INT32_SCHEMA)
            .field("name", Schema.OPTIONAL_STRING_SCHEMA)
            .build();

    Struct fromOptional =
        converter
            .convert(Records.value("t", optionalV1, new Struct(optionalV1).put("id", 1), 0))
            .row();
    Struct fromRequired =
        converter.convert(Records.value("t", V1, new Struct(V1).put("id", 2), 1)).row();

    assertThat(fromOptional.schema().isOptional()).isFalse();
    assertThat(fromOptional.get("id")).isEqualTo(1);
    assertThat(fromRequired.get("id")).isEqualTo(2);
    assertThat(converter.tableSchema("t").isOptional()).isFalse();
  }

  @Test
  void nullValuesAreIgnoredRejectedOrWrittenAsTombstones() {
    SinkRecord tombstone = Records.record("t", Schema.STRING_SCHEMA, "k9", V1, null, 41);

    assertThat(new LakeRowConverter(Records.plain()).convert(tombstone)).isNull();
    assertThatThrownBy(
            () ->
                new LakeRowConverter(Records.config(false, true, NullValues.FAIL, "${topic}"))
                    .convert(tombstone))
        .isInstanceOf(RecordRejectedException.class)
        .hasMessage(
            "topic t partition 2 offset 41: the value is null (a tombstone) and"
                + " behavior.on.null.values=fail");

    LakeRowConverter writing =
        new LakeRowConverter(Records.config(false, true, NullValues.WRITE, "${topic}"));
    Struct value = new Struct(V1).put("id", 3);
    Struct normal =
        writing.convert(Records.record("t", Schema.STRING_SCHEMA, "k3", V1, value, 40)).row();
    Struct deleted = writing.convert(tombstone).row();

    assertThat(normal.get("__deleted")).isEqualTo(false);
    assertThat(normal.schema().field("id").schema().isOptional()).isTrue();
    assertThat(deleted.schema().fields())
        .extracting(Field::name)
        .containsExactly("__key", "__deleted");
    assertThat(deleted.get("__key")).isEqualTo("k9");
    assertThat(deleted.get("__deleted")).isEqualTo(true);
    assertThat(writing.tableSchema("t").fields())
        .extracting(Field::name)
        .containsExactly("id", "name", "__key", "__deleted");
  }

  @Test
  void tablesTakeNewOptionalFieldsAndWiderNumbersAndRejectEverythingElse() {
    LakeRowConverter converter = new LakeRowConverter(Records.plain());
    Schema withEmail =
        SchemaBuilder.struct()
            .field("id", Schema.INT32_SCHEMA)
            .field("name", Schema.OPTIONAL_STRING_SCHEMA)
            .field("email", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    Schema wideId =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("name", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    Schema requiredAge =
        SchemaBuilder.struct()
            .field("id", Schema.INT32_SCHEMA)
            .field("age", Schema.INT32_SCHEMA)
            .build();
    Schema numericName =
        SchemaBuilder.struct()
            .field("id", Schema.INT32_SCHEMA)
            .field("name", Schema.OPTIONAL_INT32_SCHEMA)
            .build();

    converter.convert(Records.value("t", V1, new Struct(V1).put("id", 1), 0));
    converter.convert(Records.value("t", withEmail, new Struct(withEmail).put("id", 2), 1));
    converter.convert(Records.value("t", wideId, new Struct(wideId).put("id", 3L), 2));
    // An old-schema record after the evolution still fits.
    LakeRow old = converter.convert(Records.value("t", V1, new Struct(V1).put("id", 4), 3));

    Schema table = converter.tableSchema("t");
    assertThat(table.fields()).extracting(Field::name).containsExactly("id", "name", "email");
    assertThat(table.field("id").schema().type()).isEqualTo(Schema.Type.INT64);
    assertThat(old.row().schema().field("id").schema().type()).isEqualTo(Schema.Type.INT32);

    assertThatThrownBy(
            () ->
                converter.convert(
                    Records.value(
                        "t", requiredAge, new Struct(requiredAge).put("id", 5).put("age", 9), 4)))
        .isInstanceOf(RecordRejectedException.class)
        .hasMessageContaining("topic t partition 2 offset 4")
        .hasMessageContaining("field age: new and required");
    assertThatThrownBy(
            () ->
                converter.convert(
                    Records.value("t", numericName, new Struct(numericName).put("id", 6), 5)))
        .isInstanceOf(RecordRejectedException.class)
        .hasMessageContaining("field name: the table has string, the record has int32");
    assertThat(converter.tableSchema("t")).isSameAs(table);
  }

  @Test
  void schemalessRowsWithAddedColumnsHoldTheirFieldsThenTheColumns() {
    LakeRowConverter converter =
        new LakeRowConverter(Records.config(true, true, NullValues.WRITE, "${topic}"));
    String first = "{\"id\": 1, \"ship\": {\"zone\": 3}, \"ts\": 1767225600000}";
    String next = "{\"id\": 2, \"ship\": {\"zone\": 4}, \"ts\": 1767225600500}";
    converter.convert(keyed(Records.json("j", first, 0), "k0"));
    LakeRow second = converter.convert(keyed(Records.json("j", next, 1), "k1"));
    // A tombstone and a rejected record between rows that fit leave the next row as it should be.
    LakeRow deleted = converter.convert(keyed(Records.value("j", null, null, 2), "k2"));
    assertThatThrownBy(
            () -> converter.convert(keyed(Records.json("j", "{\"id\": \"x\"}", 3), "k3")))
        .hasMessageContaining("offset 3")
        .hasMessageContaining("field id: expected int32, got string \"x\"");
    LakeRow fourth = converter.convert(keyed(Records.json("j", next, 4), "k4"));

    for (LakeRow row : List.of(second, fourth)) {
      Struct values = row.row();
      assertThat(values.schema().fields())
          .extracting(Field::name)
          .containsExactly(
              "id",
              "ship",
              "ts",
              "__key",
              "__topic",
              "__partition",
              "__offset",
              "__timestamp",
              "__deleted");
      assertThat(values.get("id")).isEqualTo(2);
      assertThat(values.getStruct("ship").get("zone")).isEqualTo(4);
      assertThat(values.get("ts")).isEqualTo(new java.util.Date(1_767_225_600_500L));
      assertThat(values.get("__topic")).isEqualTo("j");
      assertThat(values.get("__deleted")).isEqualTo(false);
      values.validate();
    }
    assertThat(second.row().get("__key")).isEqualTo("k1");
    assertThat(second.row().get("__offset")).isEqualTo(1L);
    assertThat(fourth.row().get("__key")).isEqualTo("k4");
    assertThat(fourth.row().get("__offset")).isEqualTo(4L);
    assertThat(deleted.row().get("__deleted")).isEqualTo(true);
    assertThat(deleted.row().get("__key")).isEqualTo("k2");
  }

  private static SinkRecord keyed(SinkRecord record, String key) {
    return record.newRecord(
        record.topic(),
        record.kafkaPartition(),
        Schema.STRING_SCHEMA,
        key,
        record.valueSchema(),
        record.value(),
        record.timestamp());
  }

  @Test
  void nonStructValuesBecomeOneValueColumn() {
    LakeRowConverter converter = new LakeRowConverter(Records.plain());

    Struct number = converter.convert(Records.value("n", Schema.INT64_SCHEMA, 5L, 0)).row();
    Struct text = converter.convert(Records.json("s", "\"hello\"", 0)).row();
    Struct list = converter.convert(Records.json("l", "[1, 2]", 0)).row();

    assertThat(number.schema().fields()).extracting(Field::name).containsExactly("value");
    assertThat(number.get("value")).isEqualTo(5L);
    assertThat(text.get("value")).isEqualTo("hello");
    assertThat(list.get("value")).isEqualTo(List.of(1, 2));
  }

  @Test
  void keysAreTypedFromTheirSchemaOrInferred() {
    LakeRowConverter converter =
        new LakeRowConverter(Records.config(false, true, NullValues.IGNORE, "${topic}"));
    Schema keySchema = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();
    Struct structKey = new Struct(keySchema).put("id", 8L);

    Struct withStructKey =
        converter
            .convert(Records.record("a", keySchema, structKey, V1, new Struct(V1).put("id", 1), 0))
            .row();
    Struct withMapKey =
        converter
            .convert(
                Records.record("b", null, Map.of("id", 9L), V1, new Struct(V1).put("id", 1), 0))
            .row();
    Struct withDateLikeStringKey =
        converter
            .convert(Records.record("c", null, "2024-05-01", V1, new Struct(V1).put("id", 1), 0))
            .row();
    Struct withoutKey =
        converter
            .convert(Records.record("d", null, null, V1, new Struct(V1).put("id", 1), 0))
            .row();

    assertThat(((Struct) withStructKey.get("__key")).get("id")).isEqualTo(8L);
    assertThat(withStructKey.schema().field("__key").schema().isOptional()).isTrue();
    assertThat(((Struct) withMapKey.get("__key")).get("id")).isEqualTo(9);
    assertThat(withDateLikeStringKey.get("__key")).isEqualTo("2024-05-01");
    assertThat(withoutKey.schema().field("__key")).isNull();
  }

  @Test
  void tableNamesComeFromThePostTransformTopicAndArePathSafe() {
    LakeRowConverter converter =
        new LakeRowConverter(Records.config(false, false, NullValues.IGNORE, "lake_${topic}"));
    Struct value = new Struct(V1).put("id", 1);

    assertThat(converter.convert(Records.value("a/b", V1, value, 0)).table())
        .isEqualTo("lake_a%2Fb");
    assertThat(converter.convert(Records.value("x=1 ü", V1, value, 0)).table())
        .isEqualTo("lake_x%3D1%20%C3%BC");
    LakeRowConverter plain = new LakeRowConverter(Records.plain());
    assertThat(plain.convert(Records.value("..", V1, value, 0)).table()).isEqualTo("%2E.");
    assertThat(plain.convert(Records.value("a\u0000b", V1, value, 0)).table()).isEqualTo("a%00b");
    String longName = plain.convert(Records.value("t".repeat(250), V1, value, 7)).table();
    assertThat(longName).hasSize(200).startsWith("t".repeat(167) + "~");
    assertThat(plain.convert(Records.value("t".repeat(251), V1, value, 8)).table())
        .hasSize(200)
        .isNotEqualTo(longName);
  }

  @Test
  void rejectsValuesParquetCannotHold() {
    LakeRowConverter converter =
        new LakeRowConverter(Records.config(true, false, NullValues.IGNORE, "${topic}"));
    Schema money =
        SchemaBuilder.struct()
            .field("amount", Decimal.builder(2).parameter("connect.decimal.precision", "5").build())
            .build();
    Schema clash = SchemaBuilder.struct().field("__offset", Schema.INT64_SCHEMA).build();

    assertThat(
            converter
                .convert(
                    Records.value(
                        "m", money, new Struct(money).put("amount", new BigDecimal("123.45")), 0))
                .row()
                .get("amount"))
        .isEqualTo(new BigDecimal("123.45"));
    assertThatThrownBy(
            () ->
                converter.convert(
                    Records.value(
                        "m", money, new Struct(money).put("amount", new BigDecimal("1234.56")), 1)))
        .isInstanceOf(RecordRejectedException.class)
        .hasMessageContaining("field amount: 1234.56 has more than the column's 5 digits");
    assertThatThrownBy(
            () ->
                converter.convert(
                    Records.value("c", clash, new Struct(clash).put("__offset", 1L), 2)))
        .isInstanceOf(RecordRejectedException.class)
        .hasMessageContaining("value field __offset collides with a column the sink adds");
  }

  @Test
  void aValueFieldNamedLikeAColumnTheSinkDoesNotAddIsTheRecordsOwn() {
    Schema unwrapped =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("__deleted", Schema.STRING_SCHEMA)
            .build();
    LakeRowConverter plain = new LakeRowConverter(Records.plain());
    assertThat(
            plain
                .convert(
                    Records.value(
                        "c",
                        unwrapped,
                        new Struct(unwrapped).put("id", 1L).put("__deleted", "true"),
                        3))
                .row()
                .get("__deleted"))
        .as("ExtractNewRecordState's own __deleted")
        .isEqualTo("true");
  }
}
