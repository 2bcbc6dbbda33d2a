package io.skippr.connect.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.api.Test;

class ContractTest {
  private static final Schema SCHEMA =
      SchemaBuilder.struct()
          .optional()
          .field("id", Schema.INT64_SCHEMA)
          .field("at", Timestamp.builder().optional().build())
          .field("day", Date.SCHEMA)
          .field("amount", Decimal.builder(2).parameter("connect.decimal.precision", "10").build())
          .field(
              "items",
              SchemaBuilder.array(
                      SchemaBuilder.struct()
                          .optional()
                          .field("sku", Schema.OPTIONAL_STRING_SCHEMA)
                          .field("qty", Schema.OPTIONAL_INT32_SCHEMA)
                          .build())
                  .optional()
                  .build())
          .field(
              "attrs",
              SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_FLOAT64_SCHEMA)
                  .optional()
                  .doc("free-form")
                  .build())
          .field(
              "note",
              SchemaBuilder.string()
                  .optional()
                  .parameter("io.skippr.connect.schema.null.only", "true")
                  .build())
          .field(
              "mixed",
              SchemaBuilder.string()
                  .optional()
                  .parameter("io.skippr.connect.schema.conflict", "int32,string")
                  .build())
          .field("zoned", SchemaBuilder.string().name("io.debezium.time.ZonedTimestamp").build())
          .field("weird name", Schema.BOOLEAN_SCHEMA)
          .build();

  private static final String CANONICAL =
      "struct?{id:int64,at:timestamp?,day:date,amount:decimal(connect.decimal.precision=10,"
          + "scale=2),items:array?<struct?{sku:string?,qty:int32?}>,attrs:map?<string,double?>,"
          + "note:string?,mixed:string?,zoned:string(name=io.debezium.time.ZonedTimestamp),"
          + "\"weird name\":boolean}";

  @Test
  void jsonRoundTripKeepsTheSchemaExactly() {
    Contract contract = new Contract("orders", SCHEMA);
    Contract back = Contract.fromJson(contract.toJson());
    assertThat(back).isEqualTo(contract);
    assertThat(back.schema()).isEqualTo(SCHEMA);
    assertThat(back.fingerprint()).isEqualTo(contract.fingerprint());
  }

  @Test
  void jsonIsReadable() {
    String json = new Contract("orders", SCHEMA).toJson();
    assertThat(json)
        .contains("\"formatVersion\" : 1")
        .contains("\"namespace\" : \"orders\"")
        .contains(
            "{\n    \"name\" : \"id\",\n    \"type\" : \"int64\",\n    \"nullable\" : false\n  }")
        .contains("\"type\" : \"decimal\"")
        .contains("\"scale\" : 2")
        .contains("\"flag\" : \"null-only\"")
        .contains("\"seen\" : [ \"int32\", \"string\" ]")
        .contains("\"schemaName\" : \"io.debezium.time.ZonedTimestamp\"")
        .contains(
            "\"path\" : \"mixed\",\n    \"kind\" : \"type-conflict\",\n    \"detail\" : \"int32,string\"");
  }

  @Test
  void flagsComeFromTheSchema() {
    assertThat(new Contract("orders", SCHEMA).flags())
        .containsExactly(
            new SchemaFlag("note", SchemaFlag.Kind.NULL_ONLY, ""),
            new SchemaFlag("mixed", SchemaFlag.Kind.TYPE_CONFLICT, "int32,string"));
  }

  @Test
  void fingerprintIsTheSha256OfTheCanonicalText() throws Exception {
    assertThat(SchemaFingerprint.canonical(SCHEMA)).isEqualTo(CANONICAL);
    byte[] hash =
        MessageDigest.getInstance("SHA-256").digest(CANONICAL.getBytes(StandardCharsets.UTF_8));
    assertThat(new Contract("orders", SCHEMA).fingerprint())
        .isEqualTo("sha256:" + HexFormat.of().formatHex(hash));
  }

  @Test
  void fingerprintIgnoresDocsFlagsAndStructNamesButNotShape() throws Exception {
    Schema a = SchemaBuilder.struct().name("A").field("x", Schema.OPTIONAL_STRING_SCHEMA).build();
    Schema b =
        SchemaBuilder.struct()
            .name("B")
            .doc("doc")
            .field(
                "x",
                SchemaBuilder.string()
                    .optional()
                    .parameter(SchemaMarkers.NULL_ONLY, "true")
                    .build())
            .build();
    assertThat(SchemaFingerprint.of(a)).isEqualTo(SchemaFingerprint.of(b));
    assertThat(SchemaFingerprint.of(a)).isEqualTo("sha256:" + sha256Hex("struct{x:string?}"));
    Schema c = SchemaBuilder.struct().field("x", Schema.STRING_SCHEMA).build();
    Schema d = SchemaBuilder.struct().field("y", Schema.OPTIONAL_STRING_SCHEMA).build();
    assertThat(SchemaFingerprint.of(c)).isNotEqualTo(SchemaFingerprint.of(a));
    assertThat(SchemaFingerprint.of(d)).isNotEqualTo(SchemaFingerprint.of(a));
  }

  @Test
  void refusesUnknownVersionsAndMalformedContracts() {
    assertThatThrownBy(() -> Contract.fromJson("{\"formatVersion\":2,\"namespace\":\"x\"}"))
        .hasMessageContaining("contract format version 2 is not supported");
    assertThatThrownBy(
            () ->
                Contract.fromJson(
                    "{\"formatVersion\":1,\"namespace\":\"x\",\"type\":\"struct\","
                        + "\"fields\":[{\"name\":\"a\",\"type\":\"struct\",\"fields\":"
                        + "[{\"name\":\"b\",\"type\":\"uuid\"}]}]}"))
        .hasMessage("a.b: unknown type \"uuid\"");
    assertThatThrownBy(
            () -> Contract.fromJson("{\"formatVersion\":1,\"namespace\":\"x\",\"type\":\"int64\"}"))
        .hasMessageContaining("a contract describes a struct");
    assertThatThrownBy(() -> Contract.fromJson("not json"))
        .hasMessageStartingWith("contract is not valid JSON");
  }

  @Test
  void pipelineIdPartsMustBeSinglePathSegments() {
    assertThat(PipelineId.of("p").toString()).isEqualTo("default/default/p");
    for (String bad : List.of("", ".", "..", "a/b", "a\\b", "a\u0000b", "x".repeat(256))) {
      assertThatThrownBy(() -> new PipelineId("t", "w", bad))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  private static String sha256Hex(String text) throws Exception {
    return HexFormat.of()
        .formatHex(
            MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
  }
}
