package io.skippr.connect.source.poll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.source.poll.config.HttpPollConfig;
import io.skippr.connect.state.api.SecretCodec;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.api.StoreEnvironment;
import io.skippr.connect.state.connect.SourceOffsetMirror;
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
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HttpPollSourceConnectorTest {
  private static final String URL = "https://api.example.com/v1/orders";

  @TempDir Path dir;

  private HttpPollSourceConnector connector(Map<String, String> env) {
    StoreEnvironment environment = StoreEnvironment.of(env, dir);
    return new HttpPollSourceConnector(p -> StateStores.open(p, environment), environment);
  }

  private static Map<String, String> base() {
    Map<String, String> c = new HashMap<>();
    c.put("name", "orders-poll");
    c.put("http.url", URL);
    c.put("topic", "orders");
    c.put("cursor.pointer", "/updated_at");
    return c;
  }

  @Test
  void isFoundByServiceLoaderAndReportsTheBuildVersion() {
    assertThat(ServiceLoader.load(SourceConnector.class).stream().map(ServiceLoader.Provider::type))
        .contains(HttpPollSourceConnector.class);
    assertThat(new HttpPollSourceConnector().version()).matches("\\d+\\.\\d+\\.\\d+.*");
    assertThat(new HttpPollSourceConnector().taskClass()).isEqualTo(HttpPollSourceTask.class);
  }

  @Test
  void endpointsAreSpreadOverTasks() {
    Map<String, String> c = base();
    c.put("endpoints", "a,b,c,d,e");
    HttpPollSourceConnector connector = connector(Map.of());
    connector.start(c);
    assertThat(connector.taskConfigs(2))
        .extracting(t -> t.get(HttpPollSourceConnector.TASK_ENDPOINTS))
        .containsExactly("a,c,e", "b,d");
    assertThat(connector.taskConfigs(10)).hasSize(5);
    connector.start(base());
    assertThat(connector.taskConfigs(4))
        .extracting(t -> t.get(HttpPollSourceConnector.TASK_ENDPOINTS))
        .containsExactly("default");
  }

  @Test
  void supportsExactlyOnceWithPagesAsTransactions() {
    HttpPollSourceConnector connector = connector(Map.of());
    assertThat(connector.exactlyOnceSupport(base())).isEqualTo(ExactlyOnceSupport.SUPPORTED);
    assertThat(connector.canDefineTransactionBoundaries(base()))
        .isEqualTo(ConnectorTransactionBoundaries.SUPPORTED);
  }

  @Test
  void validateAttachesEachProblemToTheKeyToChange() {
    Map<String, String> c = base();
    c.remove("http.url");
    c.put("endpoints", "a,b");
    c.put("endpoint.a.http.url", URL);
    c.put("endpoint.a.pagination.mode", "token");
    c.put("endpoint.b.http.url", URL);
    c.put("endpoint.b.cursor.pointer", "");
    c.put("endpoint.b.cursor.tiebreak.pointer", "/id");
    c.put("endpoint.c.topic", "x");
    c.put("endpoint.a.no.such.key", "1");
    Map<String, List<String>> errors = errors(connector(Map.of()), c);
    assertThat(errors.get("pagination.next.pointer"))
        .containsExactly("(endpoint a) is required by pagination.mode=token");
    assertThat(errors.get("endpoints"))
        .anyMatch(e -> e.contains("endpoint.c.topic: 'c' is not listed in endpoints"))
        .anyMatch(e -> e.contains("endpoint.a.no.such.key: 'no.such.key' is not a key"))
        .anyMatch(
            e ->
                e.contains(
                    "endpoint.b.cursor.tiebreak.pointer orders equal cursors: set cursor.pointer"));
    assertThat(errors).doesNotContainKey("http.url");
  }

  @Test
  void validateNamesMissingSettingsAndASingleKeyThatIsInvalid() {
    Map<String, String> c = base();
    c.remove("http.url");
    c.put("auth.type", "oauth2");
    c.put("auth.oauth2.grant", "refresh_token");
    Map<String, List<String>> errors = errors(connector(Map.of()), c);
    assertThat(errors.get("http.url")).containsExactly("is required: the URL to poll");
    assertThat(errors.get("auth.oauth2.token.url"))
        .containsExactly("is required by auth.type=oauth2");
    assertThat(errors.get("auth.oauth2.refresh.token")).hasSize(1);
    assertThat(errors.get("auth.oauth2.grant").get(0)).contains(SecretCodec.ENV_STATE_KEY);

    Map<String, String> bad = base();
    bad.put("pagination.mode", "cursorish");
    assertThat(errors(connector(Map.of()), bad).get("pagination.mode")).isNotEmpty();
    assertThatThrownBy(() -> connector(Map.of()).start(Map.of("name", "x", "topic", "t")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("http.url: is required");
  }

  @Test
  void alteredOffsetsReachTheStateStoreMirror() {
    Map<String, String> c = base();
    c.put("endpoints", "orders,refunds");
    c.put("endpoint.orders.http.url", URL);
    c.put("endpoint.refunds.http.url", URL + "/refunds");
    HttpPollSourceConnector connector = connector(Map.of());
    Map<Map<String, ?>, Map<String, ?>> offsets = new HashMap<>();
    offsets.put(Map.of("endpoint", "orders"), Map.of("cursor", "2024-05-01T00:00:00Z"));
    offsets.put(Map.of("endpoint", "refunds"), Map.of("cursor", 17L, "tiebreak", "r-9"));
    assertThat(connector.alterOffsets(c, offsets)).isTrue();
    try (StateStore store = StateStores.open(c, StoreEnvironment.of(Map.of(), dir))) {
      SourceOffsetMirror mirror =
          new SourceOffsetMirror(store, StateScope.ofPipeline("orders-poll"), "orders-poll");
      assertThat(mirror.read(Map.of("endpoint", "orders")))
          .contains(Map.of("cursor", "2024-05-01T00:00:00Z"));
      assertThat(mirror.read(Map.of("endpoint", "refunds")))
          .contains(Map.of("cursor", 17L, "tiebreak", "r-9"));
    }
    Map<Map<String, ?>, Map<String, ?>> reset = new HashMap<>();
    reset.put(Map.of("endpoint", "orders"), null);
    connector.alterOffsets(c, reset);
    try (StateStore store = StateStores.open(c, StoreEnvironment.of(Map.of(), dir))) {
      SourceOffsetMirror mirror =
          new SourceOffsetMirror(store, StateScope.ofPipeline("orders-poll"), "orders-poll");
      assertThat(mirror.read(Map.of("endpoint", "orders"))).isEmpty();
      assertThat(mirror.read(Map.of("endpoint", "refunds"))).isPresent();
    }
  }

  @Test
  void offsetsOfOtherPartitionsOrShapesAreRefused() {
    HttpPollSourceConnector connector = connector(Map.of());
    assertThatThrownBy(
            () ->
                connector.alterOffsets(
                    base(), Map.of(Map.of("endpoint", "nope"), Map.of("cursor", "x"))))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("[default]");
    assertThatThrownBy(
            () ->
                connector.alterOffsets(
                    base(), Map.of(Map.of("endpoint", "default"), Map.of("position", 3))))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("offset key 'position' is unknown");
    assertThatThrownBy(
            () ->
                connector.alterOffsets(
                    base(), Map.of(Map.of("endpoint", "default"), Map.of("page", -1))))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("'page' must be a whole number >= 0");
  }

  @Test
  void theExampleConfigsAreValid() throws IOException {
    for (String example : List.of("config/http-poll.json", "config/http-poll-oauth2.json")) {
      Map<String, String> config = new HashMap<>();
      new ObjectMapper()
          .readTree(repositoryFile(example).toFile())
          .fields()
          .forEachRemaining(e -> config.put(e.getKey(), e.getValue().asText()));
      config.put("name", "example");
      HttpPollSourceConnector connector =
          connector(Map.of(SecretCodec.ENV_STATE_KEY, PollHarness.newStateKey()));
      assertThat(errors(connector, config)).as(example).isEmpty();
      connector.start(config);
      assertThat(connector.taskConfigs(2)).as(example).isNotEmpty();
    }
  }

  /** Run with -Dskippr.docs.update=true to rewrite docs/config/http-poll.md. */
  @Test
  void configurationReferenceInTheDocsIsCurrent() throws IOException {
    Path page = repositoryFile("docs/config/http-poll.md");
    String expected =
        "<!-- Generated from the connector's ConfigDef; do not edit by hand. -->\n\n"
            + ConfigReference.render("HTTP poll source", HttpPollConfig.CONFIG_DEF);
    String actual = Files.exists(page) ? Files.readString(page, StandardCharsets.UTF_8) : "";
    if (!actual.equals(expected) && Boolean.getBoolean(ConfigReference.UPDATE_PROPERTY)) {
      Files.writeString(page, expected, StandardCharsets.UTF_8);
      actual = expected;
    }
    assertThat(actual)
        .as(
            page
                + " is out of date: run this test with -D"
                + ConfigReference.UPDATE_PROPERTY
                + "=true")
        .isEqualTo(expected);
  }

  @Test
  void aStoreExternalIdWithoutARoleIsReportedOnItsKey() {
    Map<String, String> config = base();
    config.put("store.type", "dynamodb");
    config.put("store.name", "skippr-state");
    config.put("store.dynamodb.sts.role.external.id", "acme-7f3e91");
    assertThat(errors(new HttpPollSourceConnector(), config))
        .containsOnlyKeys("store.dynamodb.sts.role.external.id");
    config.put("store.dynamodb.sts.role.arn", "arn:aws:iam::123456789012:role/state");
    assertThat(errors(new HttpPollSourceConnector(), config)).isEmpty();
  }

  private static Map<String, List<String>> errors(
      HttpPollSourceConnector connector, Map<String, String> config) {
    return connector.validate(config).configValues().stream()
        .filter(v -> !v.errorMessages().isEmpty())
        .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }

  private static Path repositoryFile(String relative) {
    for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("docs")) && Files.exists(p.resolve("README.md"))) {
        return p.resolve(relative);
      }
    }
    throw new IllegalStateException("repository root not found");
  }
}
