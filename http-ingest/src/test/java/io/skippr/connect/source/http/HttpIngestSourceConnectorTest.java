package io.skippr.connect.source.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.source.http.config.HttpIngestConfig;
import io.skippr.connect.testkit.ConfigReference;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.junit.jupiter.api.Test;

class HttpIngestSourceConnectorTest {

  @Test
  void runsTasksMaxTasksEachWithItsNumber() {
    HttpIngestSourceConnector c = new HttpIngestSourceConnector();
    c.start(Map.of("server.port", "9999"));
    assertThat(c.taskConfigs(3))
        .containsExactly(
            Map.of("server.port", "9999", "task.index", "0"),
            Map.of("server.port", "9999", "task.index", "1"),
            Map.of("server.port", "9999", "task.index", "2"));
    assertThat(c.taskClass()).isEqualTo(HttpIngestSourceTask.class);
  }

  @Test
  void declaresExactlyOnceSupportAndConnectorDefinedTransactions() {
    HttpIngestSourceConnector c = new HttpIngestSourceConnector();
    assertThat(c.exactlyOnceSupport(Map.of())).isEqualTo(ExactlyOnceSupport.SUPPORTED);
    assertThat(c.canDefineTransactionBoundaries(Map.of()))
        .isEqualTo(ConnectorTransactionBoundaries.SUPPORTED);
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
  void validateAttachesEachClashToTheKeyToChange() {
    Map<String, List<String>> errors =
        errorsByKey(
            new HttpIngestSourceConnector()
                .validate(
                    Map.of(
                        "admission.max.inflight.rows", "10",
                        "limits.request.max.rows", "11",
                        "admission.max.inflight.bytes", "1024",
                        "limits.request.max.decompressed.bytes", "2048")));
    assertThat(errors.get("admission.max.inflight.rows"))
        .singleElement()
        .asString()
        .contains("limits.request.max.rows");
    assertThat(errors.get("admission.max.inflight.bytes"))
        .singleElement()
        .asString()
        .contains("limits.request.max.decompressed.bytes");
    assertThat(errors.get("limits.request.max.rows")).isEmpty();
    assertThat(errorsByKey(new HttpIngestSourceConnector().validate(Map.of())).values())
        .allMatch(List::isEmpty);
  }

  @Test
  void aStoreAssumingARoleWithoutItIsReportedOnTheRolesKey() {
    Map<String, List<String>> errors =
        errorsByKey(
            new HttpIngestSourceConnector()
                .validate(
                    Map.of(
                        "store.type", "dynamodb",
                        "store.name", "skippr-state",
                        "store.dynamodb.credentials.provider.class",
                            "io.confluent.connect.s3.auth.AwsAssumeRoleCredentialsProvider")));
    assertThat(errors.get("store.dynamodb.sts.role.arn"))
        .singleElement()
        .asString()
        .contains("store.dynamodb.credentials.provider.class");
    assertThat(errors.get("store.dynamodb.credentials.provider.class")).isEmpty();
  }

  @Test
  void theRecordLimitMustFitTheProducersRequestSize() {
    Map<String, List<String>> errors =
        errorsByKey(
            new HttpIngestSourceConnector()
                .validate(Map.of("producer.override.max.request.size", "500000")));
    assertThat(errors.get("limits.record.max.bytes"))
        .singleElement()
        .asString()
        .contains("producer.override.max.request.size (500000)");
    Map<String, List<String>> fitting =
        errorsByKey(
            new HttpIngestSourceConnector()
                .validate(
                    Map.of(
                        "producer.override.max.request.size", "500000",
                        "limits.record.max.bytes", "498976")));
    assertThat(fitting.get("limits.record.max.bytes")).isEmpty();
  }

  private static Map<String, List<String>> errorsByKey(Config config) {
    Map<String, List<String>> errors = new HashMap<>();
    config.configValues().forEach(v -> errors.put(v.name(), v.errorMessages()));
    return errors;
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

  /** Run with -Dskippr.docs.update=true to rewrite the section after changing the ConfigDef. */
  @Test
  void configurationReferenceInTheDocsIsCurrent() throws IOException {
    Path doc = docsPage();
    String text = Files.readString(doc, StandardCharsets.UTF_8);
    String start = "<!-- config:http-ingest -->";
    String end = "<!-- /config:http-ingest -->";
    int from = text.indexOf(start);
    int to = text.indexOf(end);
    assertThat(from).as("markers in " + doc).isNotNegative().isLessThan(to);
    String rendered = ConfigReference.render("HTTP ingest source", HttpIngestConfig.CONFIG_DEF);
    String expected =
        text.substring(0, from + start.length()) + "\n" + rendered + text.substring(to);
    if (Boolean.getBoolean(ConfigReference.UPDATE_PROPERTY)) {
      Files.writeString(doc, expected, StandardCharsets.UTF_8);
    }
    assertThat(text)
        .as(
            doc
                + " is out of date: run this test with -D"
                + ConfigReference.UPDATE_PROPERTY
                + "=true")
        .isEqualTo(expected);
  }

  private static Path docsPage() {
    for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
      Path candidate = p.resolve("docs/http-ingest.md");
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException("docs/http-ingest.md not found from the working directory");
  }
}
