package io.skippr.connect.lake.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class ParquetSchemasTest {
  private static final Schema ROW = row(SchemaBuilder.struct(), Schema.INT64_SCHEMA);

  private static Schema row(SchemaBuilder builder, Schema id) {
    return builder
        .field("id", id)
        .field("tags", SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA).optional().build())
        .field(
            "attrs",
            SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT32_SCHEMA).optional().build())
        .field("price", Decimal.builder(2).optional().build())
        .build();
  }

  @Test
  void writesListsMapsAndDecimalsInTheStandardLayouts() {
    assertThat(ParquetSchemas.toMessageType(ROW).toString())
        .isEqualToIgnoringWhitespace(
            "message row {"
                + " required int64 id;"
                + " optional group tags (LIST) { repeated group list { optional binary element"
                + " (STRING); } }"
                + " optional group attrs (MAP) { repeated group key_value { required binary key"
                + " (STRING); required int32 value; } }"
                + " optional fixed_len_byte_array(16) price (DECIMAL(38,2));"
                + " }");
  }

  @Test
  void decimalsUseTheNarrowestPhysicalType() {
    Schema row =
        SchemaBuilder.struct()
            .field("p9", Decimal.builder(0).parameter("connect.decimal.precision", "9").build())
            .field("p18", Decimal.builder(3).parameter("connect.decimal.precision", "18").build())
            .field("p19", Decimal.builder(3).parameter("connect.decimal.precision", "19").build())
            .build();

    assertThat(ParquetSchemas.toMessageType(row).toString())
        .isEqualToIgnoringWhitespace(
            "message row { required int32 p9 (DECIMAL(9,0)); required int64 p18 (DECIMAL(18,3));"
                + " required fixed_len_byte_array(9) p19 (DECIMAL(19,3)); }");
  }

  @Test
  void fingerprintIsStableAndFollowsTheFileLayout() throws Exception {
    Schema same =
        row(
            SchemaBuilder.struct().name("Renamed").doc("docs do not change the file"),
            Schema.INT64_SCHEMA);
    Schema optionalId = row(SchemaBuilder.struct(), Schema.OPTIONAL_INT64_SCHEMA);

    // The canonical form: a change here changes every commit log entry's schema fingerprint.
    String canonical =
        "3:row REPEATED {2:id REQUIRED INT64;4:tags OPTIONAL LIST {4:list REPEATED"
            + " {7:element OPTIONAL BINARY STRING;};};5:attrs OPTIONAL MAP {9:key_value REPEATED"
            + " {3:key REQUIRED BINARY STRING;5:value REQUIRED INT32;};};5:price OPTIONAL"
            + " FIXED_LEN_BYTE_ARRAY(16) DECIMAL(38,2);}";
    assertThat(ParquetSchemas.fingerprint(ROW))
        .isEqualTo(sha256(canonical))
        .isEqualTo(ParquetSchemas.fingerprint(same));
    assertThat(ParquetSchemas.fingerprint(optionalId))
        .isNotEqualTo(ParquetSchemas.fingerprint(ROW));
  }

  private static String sha256(String text) throws Exception {
    return java.util.HexFormat.of()
        .formatHex(
            java.security.MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
  }

  @Test
  void refusesWhatParquetCannotStore() {
    Schema empty = SchemaBuilder.struct().field("e", SchemaBuilder.struct().build()).build();
    Schema negativeScale = SchemaBuilder.struct().field("d", Decimal.schema(-2)).build();

    assertThatThrownBy(() -> ParquetSchemas.toMessageType(Schema.STRING_SCHEMA))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("must be a struct");
    assertThatThrownBy(() -> ParquetSchemas.toMessageType(empty))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("struct e has no fields");
    assertThatThrownBy(() -> ParquetSchemas.toMessageType(negativeScale))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("field d: Parquet cannot store DECIMAL(38,-2)");
  }
}
