package io.skippr.connect.source.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/**
 * With {@code record.encoding=json} the request threads write the bytes Connect's JsonConverter
 * would write, so a worker with ByteArrayConverter puts the same bytes in Kafka as one converting
 * the Structs and maps itself.
 */
class HttpIngestEncodingTest {

  private static final String BYTES = "org.apache.kafka.connect.converters.ByteArrayConverter";

  @Test
  void jsonEncodingWritesWhatJsonConverterWouldWrite() throws Exception {
    String lines = "enc,host=a v=1.5,n=2i,s=\"x\" 1700000000000000001\n";
    String items = "[{\"a\":1,\"b\":{\"c\":[true]}}]";
    List<SourceRecord> plain;
    try (TaskHarness h = new TaskHarness(Map.of())) {
      assertThat(h.post("/write", lines).statusCode()).isEqualTo(204);
      assertThat(h.post("/ingest/items", items).statusCode()).isEqualTo(204);
      assertThat(h.post("/write", "enc v=\"clash\" 2\n").statusCode()).isEqualTo(400);
      plain = h.sent();
    }
    for (boolean schemas : new boolean[] {true, false}) {
      JsonConverter json = new JsonConverter();
      json.configure(
          Map.of("schemas.enable", Boolean.toString(schemas), "converter.type", "value"));
      Map<String, String> props =
          Map.of(
              "record.encoding",
              "json",
              "record.encoding.json.schemas.enable",
              Boolean.toString(schemas),
              "value.converter",
              BYTES);
      try (TaskHarness h = new TaskHarness(props)) {
        assertThat(h.post("/write", lines).statusCode()).isEqualTo(204);
        assertThat(h.post("/ingest/items", items).statusCode()).isEqualTo(204);
        assertThat(h.post("/write", "enc v=\"clash\" 2\n").statusCode()).isEqualTo(400);
        List<SourceRecord> encoded = h.sent();
        assertThat(encoded).hasSameSizeAs(plain).hasSize(3);
        for (int i = 0; i < encoded.size(); i++) {
          SourceRecord p = plain.get(i);
          SourceRecord e = encoded.get(i);
          assertThat(e.valueSchema()).isEqualTo(Schema.OPTIONAL_BYTES_SCHEMA);
          assertThat(e.topic()).isEqualTo(p.topic());
          assertThat(e.key()).isEqualTo(p.key());
          if (!p.topic().endsWith("_rejections")) {
            assertThat((byte[]) e.value())
                .as(p.topic())
                .isEqualTo(json.fromConnectData(p.topic(), p.valueSchema(), p.value()));
          }
        }
      }
    }
  }

  @Test
  void jsonEncodingNeedsTheByteArrayConverter() {
    List<ConfigValue> values =
        new HttpIngestSourceConnector()
            .validate(
                Map.of(
                    "record.encoding",
                    "json",
                    "value.converter",
                    "org.apache.kafka.connect.json.JsonConverter"))
            .configValues();
    ConfigValue encoding =
        values.stream().filter(v -> v.name().equals("record.encoding")).findFirst().orElseThrow();
    assertThat(encoding.errorMessages())
        .singleElement()
        .asString()
        .contains("set value.converter=" + BYTES);
  }
}
