package io.skippr.connect.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkerClassLoaderTest {

  @Test
  void theProjectsJarsAndClassDirectoriesAreLeftOut() {
    assertThat(WorkerClassLoader.ours(Path.of("/opt/cli/lib/skippr-sink-connector-0.1.0.jar")))
        .isTrue();
    assertThat(WorkerClassLoader.ours(Path.of("/work/sink-connector/target/classes"))).isTrue();
    assertThat(WorkerClassLoader.ours(Path.of("/opt/cli/lib/debezium-embedded-3.6.1.Final.jar")))
        .isTrue();
    assertThat(WorkerClassLoader.ours(Path.of("/opt/cli/lib/connect-runtime-4.3.1.jar"))).isFalse();
    assertThat(WorkerClassLoader.ours(Path.of("/opt/cli/lib/jetty-server-12.0.34.jar"))).isFalse();
  }

  @Test
  void connectComesFromTheWorkerLoaderAndTheConnectorsFromNowhere() throws Exception {
    try (WorkerClassLoader loader = WorkerClassLoader.create()) {
      Class<?> distributed =
          Class.forName("org.apache.kafka.connect.cli.ConnectDistributed", false, loader);
      assertThat(distributed.getClassLoader()).isSameAs(loader);
      assertThatThrownBy(
              () ->
                  Class.forName(
                      "io.skippr.connect.source.http.HttpIngestSourceConnector", false, loader))
          .isInstanceOf(ClassNotFoundException.class);
      for (String service :
          List.of(
              "META-INF/services/org.apache.kafka.connect.sink.SinkConnector",
              "META-INF/services/org.apache.kafka.connect.source.SourceConnector")) {
        assertThat(Collections.list(loader.getResources(service)))
            .extracting(URL::toString)
            .noneMatch(url -> url.contains("/skippr-") || url.contains("/target/classes"));
      }
      // Logging is the CLI's, so the worker logs through its configuration.
      assertThat(Class.forName("org.slf4j.LoggerFactory", false, loader).getClassLoader())
          .isSameAs(WorkerClassLoader.class.getClassLoader());
    }
  }
}
