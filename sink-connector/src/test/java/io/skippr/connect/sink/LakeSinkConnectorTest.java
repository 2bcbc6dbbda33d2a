package io.skippr.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.write.LakeSinkConfig;
import io.skippr.connect.testkit.ConfigReference;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.sink.SinkConnector;
import org.junit.jupiter.api.Test;

class LakeSinkConnectorTest {
  private static Map<String, String> valid() {
    Map<String, String> props = new HashMap<>();
    props.put("name", "lake");
    props.put("topics", "orders");
    props.put("topics.dir", "/tmp/lake");
    return props;
  }

  private static Map<String, List<String>> errors(Map<String, String> props) {
    return new LakeSinkConnector()
        .validate(props).configValues().stream()
            .filter(v -> !v.errorMessages().isEmpty())
            .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
  }

  private static Map<String, String> with(String... keyValues) {
    Map<String, String> props = valid();
    for (int i = 0; i < keyValues.length; i += 2) {
      props.put(keyValues[i], keyValues[i + 1]);
    }
    return props;
  }

  @Test
  void aValidConfigurationHasNoErrors() {
    assertThat(errors(valid())).isEmpty();
    assertThat(errors(with("topics.dir", "file:///tmp/lake"))).isEmpty();
  }

  @Test
  void readUncommittedIsRefusedWithTheReason() {
    assertThat(errors(with("consumer.override.isolation.level", "read_uncommitted")))
        .containsOnlyKeys("consumer.override.isolation.level")
        .hasEntrySatisfying(
            "consumer.override.isolation.level",
            e -> assertThat(e).singleElement().asString().contains("aborted transactions"));
    assertThat(errors(with("consumer.override.isolation.level", "read_committed"))).isEmpty();
  }

  @Test
  void crossFieldProblemsAreAttachedToTheKeyToChange() {
    assertThat(errors(with("partitioner.class", "field"))).containsOnlyKeys("partition.field.name");
    assertThat(
            errors(
                with(
                    "partitioner.class", "time",
                    "path.format", "'dt'=YYYY-MM-dd",
                    "timestamp.extractor", "RecordField")))
        .containsOnlyKeys("timestamp.field");
    assertThat(
            errors(
                with(
                    "flush.size", "0",
                    "flush.bytes", "0")))
        .containsOnlyKeys("flush.size");
    assertThat(errors(with("flush.bytes", "2048", "buffer.max.bytes", "1024")))
        .containsOnlyKeys("flush.bytes");
    assertThat(errors(with("flush.bytes", "2048", "buffer.max.bytes", "1024")).get("flush.bytes"))
        .singleElement()
        .asString()
        .contains("can never fire");
  }

  @Test
  void singleKeyProblemsAreReportedByTheirKey() {
    Map<String, String> missing = valid();
    missing.remove("topics.dir");
    assertThat(errors(missing)).containsOnlyKeys("topics.dir");
    assertThat(errors(with("topics.dir", "gs://bucket/lake"))).containsOnlyKeys("topics.dir");
    assertThat(errors(with("flush.size", "-1"))).containsOnlyKeys("flush.size");
  }

  @Test
  void startRefusesBadSettingsAndTasksGetTheConnectorsSettings() {
    LakeSinkConnector connector = new LakeSinkConnector();
    assertThatThrownBy(() -> connector.start(with("buffer.max.bytes", "1")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("buffer.max.bytes");
    connector.start(valid());
    assertThat(connector.taskConfigs(3)).hasSize(3).allMatch(valid()::equals);
    assertThat(connector.taskClass()).isEqualTo(LakeSinkTask.class);
  }

  @Test
  void versionComesFromTheBuild() {
    assertThat(new LakeSinkConnector().version()).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
    assertThat(new LakeSinkTask().version()).isEqualTo(new LakeSinkConnector().version());
  }

  @Test
  void isFoundByServiceLoader() {
    assertThat(ServiceLoader.load(SinkConnector.class).stream().map(p -> p.type().getName()))
        .contains(LakeSinkConnector.class.getName());
  }

  @Test
  void fingerprintFollowsTheSettingsThatShapeFilesOnly() {
    String base = new LakeSinkConfig(valid()).configFingerprint();
    assertThat(new LakeSinkConfig(valid()).configFingerprint()).isEqualTo(base);
    assertThat(new LakeSinkConfig(with("flush.size", "7")).configFingerprint()).isEqualTo(base);
    assertThat(new LakeSinkConfig(with("parquet.codec", "zstd")).configFingerprint())
        .isNotEqualTo(base);
    assertThat(
            new LakeSinkConfig(with("partitioner.class", "field", "partition.field.name", "a"))
                .configFingerprint())
        .isNotEqualTo(base);
  }

  @Test
  void errorsToleranceIsReadFromTheFrameworkKey() {
    assertThat(new LakeSinkConfig(valid()).toleratesErrors()).isFalse();
    assertThat(new LakeSinkConfig(with("errors.tolerance", "all")).toleratesErrors()).isTrue();
  }

  @Test
  void configurationReferenceIsUpToDate() {
    ConfigReference.check("lake-sink", "Lake sink", LakeSinkConfig.configDef());
  }
}
