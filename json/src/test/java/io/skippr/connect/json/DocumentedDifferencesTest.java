package io.skippr.connect.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/**
 * Each difference docs/json-converter.md states, shown against Kafka's converter: where Kafka reads
 * a value other than the one written, the streaming converter refuses the record (or, for NaN and
 * the infinities, reads back what was written); a ByteBuffer is written from its position to its
 * limit.
 */
class DocumentedDifferencesTest {
  private final JsonConverter kafka = Setup.of(true).kafka();
  private final StreamingJsonConverter ours = Setup.of(true).ours();
  private final JsonConverter kafkaPlain = Setup.of(false).kafka();
  private final StreamingJsonConverter oursPlain = Setup.of(false).ours();

  private static byte[] envelope(String schema, String payload) {
    return ("{\"schema\":" + schema + ",\"payload\":" + payload + "}")
        .getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void anOutOfRangeIntegerIsRefusedWhereKafkaWrapsIt() {
    byte[] record = envelope("{\"type\":\"int8\"}", "300");

    assertThat(kafka.toConnectData("t", record).value()).isEqualTo((byte) 44);
    assertThatThrownBy(() -> ours.toConnectData("t", record))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("Invalid JSON number for INT8 at the top level: out of range");
  }

  @Test
  void aStringIsNotReadAsZero() {
    byte[] record = envelope("{\"type\":\"int32\"}", "\"12\"");

    assertThat(kafka.toConnectData("t", record).value()).isEqualTo(0);
    assertThatThrownBy(() -> ours.toConnectData("t", record))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("Invalid JSON STRING for INT32")
        .hasMessageContaining("expected a JSON number");
  }

  @Test
  void aFractionIsNotDropped() {
    byte[] record = envelope("{\"type\":\"int64\"}", "1.5");
    byte[] whole = envelope("{\"type\":\"int64\"}", "1.0");

    assertThat(kafka.toConnectData("t", record).value()).isEqualTo(1L);
    assertThatThrownBy(() -> ours.toConnectData("t", record))
        .hasMessageContaining("it has a fraction");
    assertThat(ours.toConnectData("t", whole).value()).isEqualTo(1L);
  }

  @Test
  void aNumberBeyondTheFloatTypeIsNotInfinity() {
    byte[] record = envelope("{\"type\":\"double\"}", "1e400");

    assertThat(kafka.toConnectData("t", record).value()).isEqualTo(Double.POSITIVE_INFINITY);
    assertThatThrownBy(() -> ours.toConnectData("t", record))
        .hasMessageContaining("Invalid JSON number for FLOAT64 at the top level: out of range");
  }

  @Test
  void anIntegerBeyondInt64WithoutSchemaIsNotTruncated() {
    byte[] record = "{\"id\":18446744073709551615}".getBytes(StandardCharsets.UTF_8);

    assertThat(kafkaPlain.toConnectData("t", record).value()).isEqualTo(Map.of("id", -1L));
    assertThatThrownBy(() -> oursPlain.toConnectData("t", record))
        .hasMessageContaining("Invalid JSON number for INT64 at /id: out of range");
  }

  @Test
  void wrongKindsAreNotReadAsFalseNullOrAnObjectsValues() {
    byte[] flag = envelope("{\"type\":\"boolean\"}", "\"yes\"");
    byte[] name = envelope("{\"type\":\"string\",\"optional\":true}", "5");
    byte[] list = envelope("{\"type\":\"array\",\"items\":{\"type\":\"int32\"}}", "{\"a\":1}");

    assertThat(kafka.toConnectData("t", flag).value()).isEqualTo(false);
    assertThat(kafka.toConnectData("t", name).value()).isNull();
    assertThat(kafka.toConnectData("t", list).value()).isEqualTo(List.of(1));
    assertThatThrownBy(() -> ours.toConnectData("t", flag)).isInstanceOf(DataException.class);
    assertThatThrownBy(() -> ours.toConnectData("t", name)).isInstanceOf(DataException.class);
    assertThatThrownBy(() -> ours.toConnectData("t", list))
        .hasMessageContaining("Invalid JSON OBJECT for ARRAY at the top level");
  }

  @Test
  void aConfiguredSchemaWithADefaultKafkaWouldChangeIsRefusedAtConfiguration() {
    Setup setup = Setup.of(true).withSchemaContent("{\"type\":\"int8\",\"default\":300}");

    assertThat(setup.kafka().toConnectData("t", "null".getBytes(StandardCharsets.UTF_8)).value())
        .isEqualTo((byte) 44);
    assertThatThrownBy(setup::ours)
        .isInstanceOf(DataException.class)
        .hasMessageContaining("Invalid JSON number for INT8 at the top level: out of range");
  }

  @Test
  void aRecordKafkaRefusesAnywayIsRefusedWithKafkasError() {
    byte[] record =
        envelope(
            "{\"type\":\"struct\",\"fields\":[{\"field\":\"a\",\"type\":\"int8\"},"
                + "{\"field\":\"b\",\"type\":\"int32\"}]}",
            "{\"a\":300}");

    assertThatThrownBy(() -> kafka.toConnectData("t", record))
        .hasMessage("Invalid null value for required INT32 field");
    assertThatThrownBy(() -> ours.toConnectData("t", record))
        .hasMessage("Invalid null value for required INT32 field");
  }

  @Test
  void theMessageNamesWhereInThePayload() {
    Schema schema =
        SchemaBuilder.struct()
            .field(
                "user",
                SchemaBuilder.struct()
                    .field("tags", SchemaBuilder.array(Schema.INT16_SCHEMA).build())
                    .build())
            .build();
    String schemaJson = DifferentialFuzzTest.schemaJson(schema);
    byte[] record = envelope(schemaJson, "{\"user\":{\"tags\":[1,2,70000]}}");

    assertThatThrownBy(() -> ours.toConnectData("t", record))
        .hasMessageStartingWith("Invalid JSON number for INT16 at /user/tags/2: out of range");
  }

  @Test
  void nanAndInfinitiesReadBackAsWritten() {
    Schema schema = SchemaBuilder.array(Schema.FLOAT64_SCHEMA).build();
    List<Double> values = List.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);

    byte[] written = kafka.fromConnectData("t", schema, values);
    assertThat(ours.fromConnectData("t", schema, values)).isEqualTo(written);
    assertThat(new String(written, StandardCharsets.UTF_8))
        .endsWith("\"payload\":[\"NaN\",\"Infinity\",\"-Infinity\"]}");

    assertThat(kafka.toConnectData("t", written).value()).isEqualTo(List.of(0.0, 0.0, 0.0));
    assertThat(ours.toConnectData("t", written).value()).isEqualTo(values);
  }

  @Test
  void aNameWithA0xFfByteIsNeverTakenForAnotherName() {
    byte[] seen = "{\"d\":1}".getBytes(StandardCharsets.UTF_8);
    byte[] invalid = {'{', '"', (byte) 0xFF, 'd', '"', ':', '2', '}'};

    assertThatThrownBy(() -> Setup.of(false).kafka().toConnectData("t", invalid))
        .isInstanceOf(DataException.class);
    kafkaPlain.toConnectData("t", seen);
    assertThat(kafkaPlain.toConnectData("t", invalid).value()).isEqualTo(Map.of("d", 2L));

    oursPlain.toConnectData("t", seen);
    assertThatThrownBy(() -> oursPlain.toConnectData("t", invalid))
        .isInstanceOf(DataException.class)
        .hasMessageStartingWith("Converting byte[] to Kafka Connect data failed");
  }

  @Test
  void aByteBufferIsWrittenFromPositionToLimit() {
    ByteBuffer window = ByteBuffer.wrap(new byte[] {9, 1, 2, 3, 9}, 1, 3);
    ByteBuffer whole = ByteBuffer.wrap(new byte[] {1, 2, 3});

    assertThat(plain(kafkaPlain.fromConnectData("t", Schema.BYTES_SCHEMA, window)))
        .isEqualTo("\"CQECAwk=\"");
    assertThat(plain(oursPlain.fromConnectData("t", Schema.BYTES_SCHEMA, window)))
        .isEqualTo("\"AQID\"");
    assertThat(oursPlain.fromConnectData("t", Schema.BYTES_SCHEMA, whole))
        .isEqualTo(kafkaPlain.fromConnectData("t", Schema.BYTES_SCHEMA, whole));
  }

  @Test
  void aStructIsBuiltWithItsFieldsInPlace() {
    Schema schema =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("score", SchemaBuilder.float64().optional().defaultValue(1.5).build())
            .build();
    byte[] record = envelope(DifferentialFuzzTest.schemaJson(schema), "{\"id\":7}");

    SchemaAndValue read = ours.toConnectData("t", record);

    assertThat(read.value()).isEqualTo(new Struct(schema).put("id", 7L).put("score", 1.5));
    assertThat(read.value()).isEqualTo(kafka.toConnectData("t", record).value());
  }

  private static String plain(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
