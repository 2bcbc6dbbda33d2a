package io.skippr.connect.cli.discover;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.SchemaMarkers;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.api.Test;

class ContractTextTest {
  private static final Schema ITEM =
      SchemaBuilder.struct()
          .optional()
          .field("sku", Schema.STRING_SCHEMA)
          .field("price", Decimal.builder(2).optional().build())
          .build();
  private static final Schema ORDER =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("at", Timestamp.builder().optional().build())
          .field("items", SchemaBuilder.array(ITEM).optional().build())
          .field(
              "tags", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_INT32_SCHEMA).build())
          .field("note", SchemaMarkers.nullOnly())
          .field("code", SchemaMarkers.conflict(new TreeSet<>(List.of("int32", "string"))))
          .field("lists", SchemaBuilder.array(SchemaMarkers.nullOnly()).optional().build())
          .build();

  @Test
  void rendersAnAlignedFieldTreePerNamespace() {
    Contract orders = new Contract("orders", ORDER);
    Contract small =
        new Contract("small", SchemaBuilder.struct().field("x", Schema.BOOLEAN_SCHEMA).build());

    String text = ContractText.text(List.of(orders, small), Map.of("orders", 12, "small", 1));

    assertThat(text)
        .isEqualTo(
            "orders  (12 records, "
                + orders.fingerprint()
                + ")\n"
                + "  id       int64               required\n"
                + "  at       timestamp           nullable\n"
                + "  items    array<struct>       nullable\n"
                + "    sku    string              required\n"
                + "    price  decimal(2)          nullable\n"
                + "  tags     map<string, int32>  required\n"
                + "  note     string              nullable  null-only (no value seen yet)\n"
                + "  code     string              nullable  type-conflict (int32, string)\n"
                + "  lists    array<string>       nullable  elements: null-only (no value seen"
                + " yet)\n"
                + "\n"
                + "small  (1 record, "
                + small.fingerprint()
                + ")\n"
                + "  x  boolean  required\n");
    assertThat(ContractText.text(List.of(small), Map.of())).startsWith("small  (sha256:");
  }

  @Test
  void jsonIsTheSavedDocument() throws Exception {
    Contract orders = new Contract("orders", ORDER);
    JsonNode json = new ObjectMapper().readTree(ContractText.json(List.of(orders)));
    assertThat(json.get("formatVersion").asInt()).isEqualTo(1);
    assertThat(Contract.fromJsonNode(json.get("contracts").get(0))).isEqualTo(orders);
  }
}
