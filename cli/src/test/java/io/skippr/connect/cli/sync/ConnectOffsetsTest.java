package io.skippr.connect.cli.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectOffsetsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void writesAndReadsTheBodyOfConnectsOffsetsEndpoint() throws Exception {
    Map<Map<String, Object>, Map<String, Object>> offsets = new LinkedHashMap<>();
    offsets.put(Map.of("endpoint", "orders"), Map.of("cursor", "2026-12-01T00:00:00Z", "pass", 3));
    offsets.put(Map.of("endpoint", "invoices"), null);
    String body = ConnectOffsets.write(offsets);
    assertThat(JSON.readTree(body))
        .isEqualTo(
            JSON.readTree(
                "{\"offsets\":[{\"partition\":{\"endpoint\":\"orders\"},"
                    + "\"offset\":{\"cursor\":\"2026-12-01T00:00:00Z\",\"pass\":3}},"
                    + "{\"partition\":{\"endpoint\":\"invoices\"},\"offset\":null}]}"));
    assertThat(ConnectOffsets.parse("f", JSON.readTree(body))).isEqualTo(offsets);
  }

  @Test
  void namesWhatIsWrongInABody() {
    assertThatThrownBy(() -> ConnectOffsets.parse("f.json", JSON.readTree("{\"x\":1}")))
        .hasMessage(
            "f.json has no \"offsets\" list (the body of PATCH /connectors/{name}/offsets)");
    assertThatThrownBy(
            () -> ConnectOffsets.parse("f.json", JSON.readTree("{\"offsets\":[{\"offset\":{}}]}")))
        .hasMessage("f.json: offsets[0].partition must be an object");
    assertThatThrownBy(
            () ->
                ConnectOffsets.parse(
                    "f.json", JSON.readTree("{\"offsets\":[{\"partition\":{},\"offset\":3}]}")))
        .hasMessage("f.json: offsets[0].offset must be an object or null");
    assertThatThrownBy(() -> ConnectOffsets.read("/nonexistent/offsets.json"))
        .hasMessage("/nonexistent/offsets.json does not exist");
  }
}
