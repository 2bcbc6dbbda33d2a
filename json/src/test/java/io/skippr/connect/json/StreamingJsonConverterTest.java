package io.skippr.connect.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.testkit.ConfigReference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.ConverterType;
import org.apache.kafka.connect.storage.HeaderConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StreamingJsonConverterTest {

  @Test
  void hasKafkasKeysWithTheirTypesDefaultsAndValidators() {
    Map<String, ConfigDef.ConfigKey> kafka = JsonConverterConfig.configDef().configKeys();
    Map<String, ConfigDef.ConfigKey> ours = StreamingJsonConverterConfig.CONFIG_DEF.configKeys();

    assertThat(ours.keySet()).isEqualTo(kafka.keySet());
    for (String name : kafka.keySet()) {
      ConfigDef.ConfigKey k = kafka.get(name);
      ConfigDef.ConfigKey o = ours.get(name);
      assertThat(o.type).as(name).isEqualTo(k.type);
      assertThat(o.defaultValue).as(name).isEqualTo(k.defaultValue);
      assertThat(o.importance).as(name).isEqualTo(k.importance);
      assertThat(String.valueOf(o.validator)).as(name).isEqualTo(String.valueOf(k.validator));
      assertThat(o.group).as(name).isEqualTo(k.group);
      assertThat(o.displayName).as(name).isEqualTo(k.displayName);
    }
    assertThat(new StreamingJsonConverter().config())
        .isSameAs(StreamingJsonConverterConfig.CONFIG_DEF);
  }

  @Test
  void configurationReferenceIsCurrent() {
    ConfigReference.check(
        "json-converter", "Streaming JSON converter", StreamingJsonConverterConfig.CONFIG_DEF);
  }

  @Test
  void isFoundAsConverterAndHeaderConverter() {
    List<String> converters = new ArrayList<>();
    ServiceLoader.load(Converter.class).forEach(c -> converters.add(c.getClass().getName()));
    List<String> headerConverters = new ArrayList<>();
    ServiceLoader.load(HeaderConverter.class)
        .forEach(c -> headerConverters.add(c.getClass().getName()));

    assertThat(converters).contains(StreamingJsonConverter.class.getName());
    assertThat(headerConverters).contains(StreamingJsonConverter.class.getName());
  }

  @Test
  void refusesAConfigurationWithoutARoleAsKafkaDoes() {
    Map<String, Object> props = Map.of("schemas.enable", false);

    assertThatThrownBy(() -> Setup.of(false).kafka().configure(props))
        .isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> new StreamingJsonConverter().configure(props))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("converter.type");
  }

  @Test
  void refusesAnUnknownDecimalFormatAsKafkaDoes() {
    Map<String, Object> props = Map.of("decimal.format", "hex", "converter.type", "value");

    assertThatThrownBy(() -> Setup.of(false).kafka().configure(props))
        .isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> new StreamingJsonConverter().configure(props))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("decimal.format");
  }

  @Test
  void reportsAVersion() {
    assertThat(new StreamingJsonConverter().version()).isNotBlank();
  }

  @ParameterizedTest
  @ValueSource(strings = {"key", "value", "header"})
  void servesEveryRole(String role) {
    Setup setup = Setup.of(true).withRole(ConverterType.withName(role));
    Schema schema = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();
    Struct value = new Struct(schema).put("id", 42L);
    Differential pair = Differential.fresh(setup);

    byte[] bytes = pair.write(schema, value);
    SchemaAndValue read = pair.read(bytes).result();

    assertThat(new String(bytes, StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"schema\":{\"type\":\"struct\",\"fields\":[{\"type\":\"int64\",\"optional\":false,"
                + "\"field\":\"id\"}],\"optional\":false},\"payload\":{\"id\":42}}");
    assertThat(read.value()).isEqualTo(value);
  }

  /** Jackson's nesting limit (1,000 levels) counts the envelope: both converters stop alike. */
  @ParameterizedTest
  @ValueSource(ints = {998, 999, 1000, 1001})
  void nestingAtTheLimitAsKafka(int depth) {
    String nested = "[".repeat(depth) + "]".repeat(depth);
    Differential.fresh(Setup.of(false)).read(nested.getBytes(StandardCharsets.UTF_8));
    String envelope = "{\"schema\":null,\"payload\":" + nested + "}";
    Differential.fresh(Setup.of(true)).read(envelope.getBytes(StandardCharsets.UTF_8));

    Object value = List.of();
    for (int i = 1; i < depth; i++) {
      value = List.of(value);
    }
    Differential.fresh(Setup.of(false)).write(null, value);
    Differential.fresh(Setup.of(true)).write(null, value);
  }

  @Test
  void manyThreadsShareOneConverter() throws Exception {
    StreamingJsonConverter shared = Setup.of(true).withReplaceNullWithDefault(true).ours();
    List<byte[]> records = new ArrayList<>();
    List<SchemaAndValue> expected = new ArrayList<>();
    StreamingJsonConverter reference = Setup.of(true).ours();
    for (int i = 0; i < 6; i++) {
      Schema schema = SchemaBuilder.struct().field("f" + i, Schema.INT32_SCHEMA).build();
      byte[] bytes = reference.fromConnectData("t", schema, new Struct(schema).put("f" + i, i));
      records.add(bytes);
      expected.add(reference.toConnectData("t", bytes));
    }
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int offset = t;
        results.add(
            threads.submit(
                () -> {
                  for (int n = 0; n < 5_000; n++) {
                    int i = (n + offset) % records.size();
                    if (!shared.toConnectData("t", records.get(i)).equals(expected.get(i))) {
                      return false;
                    }
                  }
                  return true;
                }));
      }
      for (Future<Boolean> result : results) {
        assertThat(result.get()).isTrue();
      }
    } finally {
      threads.shutdownNow();
    }
  }
}
