package io.skippr.connect.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/** A value that holds its payload is copied; one that cannot be is walked, as Kafka would. */
class EncodedJsonTest {

  private static final Schema SCHEMA =
      SchemaBuilder.struct().name("p").field("a", Schema.OPTIONAL_INT64_SCHEMA).build();

  /** A Struct that claims a payload: copied while it is the record's, walked otherwise. */
  private static final class ClaimingStruct extends Struct implements EncodedJson {
    private final byte[] payload;
    private final int depth;

    ClaimingStruct(String payload, int depth) {
      super(SCHEMA);
      put("a", 1L);
      this.payload = payload.getBytes(StandardCharsets.UTF_8);
      this.depth = depth;
    }

    @Override
    public Schema encodedSchema() {
      return SCHEMA;
    }

    @Override
    public byte[] encodedPayload() {
      return payload;
    }

    @Override
    public int encodedDepth() {
      return depth;
    }
  }

  @Test
  void aPayloadIsCopiedIntoItsEnvelopeOrAlone() {
    JsonPayload payload = new JsonPayload(SCHEMA, utf8("{\"a\":7}"), 1);
    assertThat(text(converter(false).fromConnectData("t", SCHEMA, payload))).isEqualTo("{\"a\":7}");
    String kafka = text(kafka(true).fromConnectData("t", SCHEMA, new Struct(SCHEMA).put("a", 7L)));
    assertThat(text(converter(true).fromConnectData("t", SCHEMA, payload))).isEqualTo(kafka);
    JsonPayload schemaless = new JsonPayload(null, utf8("{\"b\":[1]}"), 2);
    assertThat(text(converter(true).fromConnectData("t", null, schemaless)))
        .isEqualTo("{\"schema\":null,\"payload\":{\"b\":[1]}}");
  }

  @Test
  void aValueUnderAnotherSchemaOrTooDeepIsWalked() {
    ClaimingStruct claiming = new ClaimingStruct("{\"a\":99}", 1);
    assertThat(text(converter(false).fromConnectData("t", SCHEMA, claiming)))
        .as("its own schema: copied")
        .isEqualTo("{\"a\":99}");
    Schema other =
        SchemaBuilder.struct().name("q").field("a", Schema.OPTIONAL_INT64_SCHEMA).build();
    assertThatThrownBy(() -> converter(false).fromConnectData("t", other, claiming))
        .as("another schema: walked, and refused as Kafka refuses it")
        .isInstanceOf(DataException.class)
        .hasMessage("Mismatching schema.");
    ClaimingStruct deep = new ClaimingStruct("{\"a\":99}", 1000);
    assertThat(text(converter(true).fromConnectData("t", SCHEMA, deep)))
        .as("deeper than the envelope allows: walked")
        .isEqualTo(text(kafka(true).fromConnectData("t", SCHEMA, deep)));
    assertThat(text(converter(false).fromConnectData("t", SCHEMA, deep)))
        .as("as deep as a record may be: copied")
        .isEqualTo("{\"a\":99}");
  }

  @Test
  void aPayloadThatCannotBeCopiedIsRefused() {
    JsonPayload payload = new JsonPayload(SCHEMA, utf8("{\"a\":7}"), 1);
    assertThatThrownBy(() -> converter(true).fromConnectData("t", null, payload))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("another schema");
    JsonPayload deep = new JsonPayload(null, utf8("[]"), 1000);
    assertThatThrownBy(() -> converter(true).fromConnectData("t", null, deep))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("nested too deeply");
  }

  private static StreamingJsonConverter converter(boolean schemas) {
    StreamingJsonConverter c = new StreamingJsonConverter();
    c.configure(Map.of("schemas.enable", Boolean.toString(schemas)), false);
    return c;
  }

  private static JsonConverter kafka(boolean schemas) {
    JsonConverter c = new JsonConverter();
    c.configure(Map.of("schemas.enable", Boolean.toString(schemas)), false);
    return c;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
