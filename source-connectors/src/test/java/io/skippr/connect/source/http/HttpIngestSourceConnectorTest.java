package io.skippr.connect.source.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceConnector;
import org.junit.jupiter.api.Test;

class HttpIngestSourceConnectorTest {

  @Test
  void runsExactlyOneTaskWhateverTasksMaxSays() {
    HttpIngestSourceConnector c = new HttpIngestSourceConnector();
    c.start(Map.of("server.port", "9999"));
    assertThat(c.taskConfigs(5)).containsExactly(Map.of("server.port", "9999"));
    assertThat(c.taskClass()).isEqualTo(HttpIngestSourceTask.class);
  }

  @Test
  void versionComesFromTheBuild() {
    assertThat(new HttpIngestSourceConnector().version()).matches("\\d+\\.\\d+\\.\\d+.*");
  }

  @Test
  void isFoundByServiceLoader() {
    assertThat(ServiceLoader.load(SourceConnector.class).stream().map(ServiceLoader.Provider::type))
        .contains(HttpIngestSourceConnector.class);
  }

  @Test
  void offsetsCanOnlyBeReset() {
    HttpIngestSourceConnector c = new HttpIngestSourceConnector();
    Map<Map<String, ?>, Map<String, ?>> reset = new HashMap<>();
    reset.put(Map.of("p", 1), null);
    assertThat(c.alterOffsets(Map.of(), reset)).isTrue();
    assertThatThrownBy(() -> c.alterOffsets(Map.of(), Map.of(Map.of("p", 1), Map.of("o", 2))))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("keeps no source offsets");
  }

  @Test
  void rejectsClashingOrIllegalSettings() {
    HttpIngestSourceConnector c = new HttpIngestSourceConnector();
    assertThatThrownBy(
            () ->
                c.start(
                    Map.of("admission.max.inflight.rows", "10", "limits.request.max.rows", "11")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("admission.max.inflight.rows");
    assertThatThrownBy(() -> c.start(Map.of("topic.prefix", "a b")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("topic.prefix");
    assertThatThrownBy(() -> c.start(Map.of("server.port", "70000")))
        .isInstanceOf(ConfigException.class);
  }
}
