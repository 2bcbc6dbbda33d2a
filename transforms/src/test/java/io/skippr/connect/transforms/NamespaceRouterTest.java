package io.skippr.connect.transforms;

import static io.skippr.connect.transforms.Records.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class NamespaceRouterTest {

  private static NamespaceRouter<SinkRecord> router(Map<String, String> env, String... props) {
    NamespaceRouter<SinkRecord> router = new NamespaceRouter<>(env);
    Map<String, String> config = new HashMap<>();
    for (int i = 0; i < props.length; i += 2) {
      config.put(props[i], props[i + 1]);
    }
    router.configure(config);
    return router;
  }

  private static NamespaceRouter<SinkRecord> router(String... props) {
    return router(Map.of(), props);
  }

  @Test
  void routesMapValuesByFieldValueAndKeepsEverythingElse() {
    SinkRecord in = Records.value("events", map("type", "click", "n", 1));
    SinkRecord out = router("namespace.fields", "type").apply(in);

    assertThat(out.topic()).isEqualTo("events.click");
    assertThat(out.value()).isSameAs(in.value());
    assertThat(out.key()).isEqualTo("k");
    assertThat(out.kafkaPartition()).isEqualTo(2);
    assertThat(out.timestamp()).isEqualTo(1234L);
    assertThat(out.headers().lastWithName("trace").value()).isEqualTo("t-1");
    assertThat(out.originalTopic()).isEqualTo("events");
  }

  @Test
  void routesStructValuesByNestedAndSeveralFields() {
    Schema meta = SchemaBuilder.struct().field("region", Schema.STRING_SCHEMA).build();
    Schema schema =
        SchemaBuilder.struct().field("kind", Schema.INT32_SCHEMA).field("meta", meta).build();
    Struct value =
        new Struct(schema).put("kind", 7).put("meta", new Struct(meta).put("region", "eu-west"));

    SinkRecord out =
        router("namespace.fields", "meta.region, kind", "namespace.separator", "__")
            .apply(Records.value("t", schema, value));

    assertThat(out.topic()).isEqualTo("t__eu-west__7");
    assertThat(out.valueSchema()).isSameAs(schema);
  }

  @Test
  void sanitisesToALegalTopicName() {
    SinkRecord out =
        router("namespace.fields", "type").apply(Records.value("e", map("type", "a/b c:é")));
    assertThat(out.topic()).isEqualTo("e.a_b_c__");
    assertThat(out.topic()).matches("[a-zA-Z0-9._-]+");
  }

  @Test
  void capsLongNamesAtKafkasLimitAndKeepsThemDistinct() {
    NamespaceRouter<SinkRecord> router = router("namespace.fields", "type");
    String a = router.apply(Records.value("e", map("type", "x".repeat(300) + "a"))).topic();
    String b = router.apply(Records.value("e", map("type", "x".repeat(300) + "b"))).topic();

    assertThat(a).hasSize(249).startsWith("e.xxx").matches("[a-zA-Z0-9._-]+");
    assertThat(b).hasSize(249);
    assertThat(a).isNotEqualTo(b);
    assertThat(router.apply(Records.value("e", map("type", "x".repeat(300) + "a"))).topic())
        .isEqualTo(a);
  }

  @Test
  void missingValuesFollowTheFallback() {
    SinkRecord missing = Records.value("e", map("other", 1));
    SinkRecord nullValue = Records.value("e", map("type", null));
    SinkRecord blank = Records.value("e", map("type", "  "));
    SinkRecord tombstone = Records.value("e", null);

    NamespaceRouter<SinkRecord> keep = router("namespace.fields", "type");
    for (SinkRecord record : List.of(missing, nullValue, blank, tombstone)) {
      assertThat(keep.apply(record)).isSameAs(record);
    }
    NamespaceRouter<SinkRecord> toDefault =
        router("namespace.fields", "type", "namespace.fallback", "default");
    assertThat(toDefault.apply(missing).topic()).isEqualTo("e.default");
    NamespaceRouter<SinkRecord> named =
        router(
            "namespace.fields",
            "type",
            "namespace.fallback",
            "default",
            "namespace.default",
            "unknown");
    assertThat(named.apply(nullValue).topic()).isEqualTo("e.unknown");
    NamespaceRouter<SinkRecord> fail =
        router("namespace.fields", "type", "namespace.fallback", "fail");
    assertThatThrownBy(() -> fail.apply(missing))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("topic e")
        .hasMessageContaining("namespace field type is missing");
  }

  @Test
  void refusesObjectsAsNamespaceValues() {
    NamespaceRouter<SinkRecord> router = router("namespace.fields", "type");
    assertThatThrownBy(() -> router.apply(Records.value("e", map("type", map("a", 1)))))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("namespace field type holds an object");
    assertThatThrownBy(() -> router.apply(Records.value("e", map("type", List.of(1)))))
        .hasMessageContaining("holds an array");
  }

  @Test
  void readsFieldsFromTheEnvironmentWhenTheKeyIsUnset() {
    Map<String, String> env = Map.of("TRANSFORM_NAMESPACE_FIELDS", "region, type");
    SinkRecord out = router(env).apply(Records.value("e", map("type", "view", "region", "us")));
    assertThat(out.topic()).isEqualTo("e.us.view");

    SinkRecord configured =
        router(env, "namespace.fields", "type").apply(Records.value("e", map("type", "view")));
    assertThat(configured.topic()).isEqualTo("e.view");
  }

  @Test
  void rejectsBadConfiguration() {
    assertThatThrownBy(() -> router())
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("namespace.fields is required")
        .hasMessageContaining("TRANSFORM_NAMESPACE_FIELDS");
    assertThatThrownBy(() -> router("namespace.fields", "type", "namespace.separator", "/"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("namespace.separator");
    assertThatThrownBy(() -> router("namespace.fields", "type", "namespace.fallback", "drop"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("namespace.fallback");
    assertThatThrownBy(() -> router("namespace.fields", "a..b"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("namespace.fields");
  }
}
