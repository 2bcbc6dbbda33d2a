package io.skippr.connect.source.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.source.file.config.FileSourceConfig;
import io.skippr.connect.testkit.ConfigReference;
import java.nio.file.Path;
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

class FileSourceConnectorTest {

  @TempDir Path dir;

  private Map<String, String> props(String... more) {
    Map<String, String> props = new HashMap<>();
    props.put("name", "files");
    props.put("file.dir", dir.toString());
    props.put("file.format", "ndjson");
    props.put("topic", "events");
    for (int i = 0; i < more.length; i += 2) {
      props.put(more[i], more[i + 1]);
    }
    return props;
  }

  @Test
  void everyTaskGetsItsShareOfTheFiles() {
    FileSourceConnector c = new FileSourceConnector();
    c.start(props());
    List<Map<String, String>> tasks = c.taskConfigs(3);
    assertThat(tasks).hasSize(3);
    assertThat(tasks).extracting(t -> t.get("file.task.index")).containsExactly("0", "1", "2");
    assertThat(tasks).extracting(t -> t.get("file.task.count")).containsOnly("3");
    assertThat(tasks.get(1)).containsEntry("file.dir", dir.toString());
    assertThat(c.taskClass()).isEqualTo(FileSourceTask.class);
  }

  @Test
  void isExactlyOnceCapableAndCanDefineTransactions() {
    FileSourceConnector c = new FileSourceConnector();
    assertThat(c.exactlyOnceSupport(props())).isEqualTo(ExactlyOnceSupport.SUPPORTED);
    assertThat(c.canDefineTransactionBoundaries(props()))
        .isEqualTo(ConnectorTransactionBoundaries.SUPPORTED);
  }

  @Test
  void isFoundByServiceLoaderAndHasTheBuildsVersion() {
    assertThat(ServiceLoader.load(SourceConnector.class).stream().map(ServiceLoader.Provider::type))
        .contains(FileSourceConnector.class);
    assertThat(new FileSourceConnector().version()).matches("\\d+\\.\\d+\\.\\d+.*");
  }

  @Test
  void validateNamesTheKeyToChange() {
    FileSourceConnector c = new FileSourceConnector();
    assertThat(errors(c, props("topic", ""))).containsKey("topic");
    assertThat(errors(c, props("file.format", "lineprotocol", "topic", ""))).isEmpty();
    assertThat(errors(c, props("file.completed.policy", "move"))).containsKey("file.completed.dir");
    assertThat(errors(c, props("file.tail", "true", "file.completed.policy", "delete")))
        .containsKey("file.completed.policy");
    assertThat(errors(c, props("file.format", "csv", "csv.header", "false")))
        .containsKey("csv.columns");
    assertThat(errors(c, props("file.format", "csv", "csv.quote", ","))).containsKey("csv.quote");
    assertThat(errors(c, props("file.format", "csv", "csv.delimiter", ";;")))
        .containsKey("csv.delimiter");
    // A delimiter beyond ASCII was accepted, and reading the first file failed the task.
    assertThat(errors(c, props("file.format", "csv", "csv.delimiter", "\u00a7")))
        .containsKey("csv.delimiter");
    assertThat(errors(c, props("file.format", "csv", "csv.quote", "\u00bb")))
        .containsKey("csv.quote");
    assertThat(errors(c, props("rejections.topic", "events"))).containsKey("rejections.topic");
    assertThat(errors(c, props("file.pattern", "a{b"))).containsKey("file.pattern");
    assertThat(errors(c, props("lineprotocol.precision", "weeks")))
        .containsKey("lineprotocol.precision");
    assertThat(errors(c, jsonEncoding("org.apache.kafka.connect.json.JsonConverter")))
        .containsKey("record.encoding");
    assertThat(errors(c, jsonEncoding("org.apache.kafka.connect.converters.ByteArrayConverter")))
        .isEmpty();
    assertThat(errors(c, props())).isEmpty();
  }

  @Test
  void startRefusesWhatValidateRefuses() {
    assertThatThrownBy(() -> new FileSourceConnector().start(props("topic", "")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("topic");
  }

  @Test
  void offsetsMustBeOursAndAreAppliedToTheMirror() {
    FileSourceConnector c = new FileSourceConnector();
    Map<String, String> config =
        props("store.type", "rocksdb", "store.rocksdb.path", dir.resolve("state").toString());
    Map<Map<String, ?>, Map<String, ?>> good = new HashMap<>();
    good.put(Map.of("file", "ino:1:2:ab"), Map.of("pos", 10L, "line", 1L));
    good.put(Map.of("file", "ino:1:3:cd"), null);
    assertThat(c.alterOffsets(config, good)).isTrue();
    assertThatThrownBy(() -> c.alterOffsets(config, Map.of(Map.of("path", "x"), Map.of("pos", 1L))))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("not a file source partition");
    assertThatThrownBy(
            () -> c.alterOffsets(config, Map.of(Map.of("file", "x"), Map.of("pos", -1L))))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("non-negative");
  }

  @Test
  void aStoreAssumingARoleWithoutItIsReportedOnTheRolesKey() {
    Map<String, List<String>> errors =
        errors(
            new FileSourceConnector(),
            props(
                "store.type",
                "dynamodb",
                "store.name",
                "skippr-state",
                "store.dynamodb.credentials.provider.class",
                "software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider"));
    assertThat(errors).containsOnlyKeys("store.dynamodb.sts.role.arn");
  }

  /** Run with -Dskippr.docs.update=true to rewrite docs/config/file-source.md and the README. */
  @Test
  void configurationReferenceInTheDocsIsCurrent() {
    ConfigReference.check("file-source", "File source", FileSourceConfig.CONFIG_DEF);
  }

  private Map<String, String> jsonEncoding(String valueConverter) {
    return props("record.encoding", "json", "value.converter", valueConverter);
  }

  private static Map<String, List<String>> errors(FileSourceConnector c, Map<String, String> p) {
    return c.validate(p).configValues().stream()
        .filter(v -> !v.errorMessages().isEmpty())
        .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }
}
