package io.skippr.connect.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The schemaless object the converter reads: a map like Kafka's, walked by position. */
class JsonObjectTest {
  private static Object read(String json) {
    StreamingJsonConverter converter = new StreamingJsonConverter();
    converter.configure(Map.of("schemas.enable", "false"), false);
    return converter.toConnectData("t", json.getBytes(StandardCharsets.UTF_8)).value();
  }

  @Test
  void keepsDocumentOrderAndARepeatedKeysLastValueAtItsFirstPosition() {
    JsonObject object = (JsonObject) read("{\"b\":1,\"a\":{\"c\":true},\"b\":2,\"d\":null}");

    assertThat(object.size()).isEqualTo(3);
    assertThat(List.of(object.keyAt(0), object.keyAt(1), object.keyAt(2)))
        .containsExactly("b", "a", "d");
    assertThat(object.valueAt(0)).isEqualTo(2L);
    assertThat(object.valueAt(1)).isInstanceOf(JsonObject.class);
    Map<String, Object> expected = new HashMap<>();
    expected.put("b", 2L);
    expected.put("a", Map.of("c", true));
    expected.put("d", null);
    assertThat(object).isEqualTo(expected);
  }

  @Test
  void equalsAndHashesAsAHashMapOfTheSameEntries() {
    Object object = read("{\"x\":1,\"y\":\"s\",\"z\":[1.5,null]}");
    Map<String, Object> expected = new HashMap<>();
    expected.put("x", 1L);
    expected.put("y", "s");
    expected.put("z", java.util.Arrays.asList(1.5, null));

    assertThat(object).isEqualTo(expected);
    assertThat(expected).isEqualTo(object);
    assertThat(object.hashCode()).isEqualTo(expected.hashCode());
    assertThat(object.toString()).isEqualTo("{x=1, y=s, z=[1.5, null]}");
  }

  @Test
  void transformsCanChangeItLikeAnyMap() {
    JsonObject object = (JsonObject) read("{\"a\":1,\"b\":2,\"c\":3}");

    assertThat(object.put("b", "two")).isEqualTo(2L);
    assertThat(object.put("d", 4)).isNull();
    assertThat(object.remove("a")).isEqualTo(1L);
    Iterator<Map.Entry<String, Object>> entries = object.entrySet().iterator();
    entries.next().setValue("TWO");
    entries.next();
    entries.remove(); // c
    assertThat(object).isEqualTo(Map.of("b", "TWO", "d", 4));
    assertThat(object.keyAt(0)).isEqualTo("b");
    assertThat(object.keyAt(1)).isEqualTo("d");
    assertThat(object.containsKey("c")).isFalse();
    object.put(null, "null key");
    assertThat(object.get(null)).isEqualTo("null key");
    assertThat(object.get(7)).isNull();
  }

  @Test
  void largeObjectsAreLookedUpThroughAnIndex() {
    StringBuilder json = new StringBuilder("{");
    for (int i = 0; i < 500; i++) {
      json.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":").append(i);
    }
    json.append(",\"k7\":\"again\"}");
    JsonObject object = (JsonObject) read(json.toString());

    assertThat(object.size()).isEqualTo(500);
    assertThat(object.get("k499")).isEqualTo(499L);
    assertThat(object.get("k7")).isEqualTo("again");
    assertThat(object.keyAt(7)).isEqualTo("k7");
    object.remove("k0");
    assertThat(object.get("k499")).isEqualTo(499L);
    assertThat(object.keyAt(0)).isEqualTo("k1");
    object.put("new", true);
    assertThat(object.keyAt(499)).isEqualTo("new");
    assertThat(object.get("new")).isEqualTo(true);
  }
}
