package io.skippr.connect.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/** A stream's schema takes again every object it took once. */
class InferredSchemaTest {

  @Test
  void anObjectWhoseListMixesKindsFitsTheSchemaItStarted() {
    // Found by HttpIngestFuzzTest: the first object made 'deepest' a list of conflict strings
    // (numbers and lists), and the same object sent again was refused ("expected string, got
    // number 1").
    Map<String, Object> object = Map.of("deepest", List.of(1L, List.of(2L, List.of(3L))));
    InferredSchema inferred = new InferredSchema(null, false);
    Struct first = inferred.toStruct(object);
    Schema schema = inferred.schema();

    assertThat(inferred.fit(object)).isSameAs(schema);
    Struct again = inferred.toStruct(object);
    assertThat(again).isEqualTo(first);
    assertThat(again.getArray("deepest")).containsExactly("1", "[2,[3]]");
  }

  @Test
  void aConflictColumnTakesValuesOfAnyKind() {
    InferredSchema inferred = new InferredSchema(null, false);
    inferred.toStruct(Map.of("v", List.of(1L, "a")));
    Schema schema = inferred.schema();
    assertThat(inferred.fit(Map.of("v", List.of(true, Map.of("k", 2L))))).isSameAs(schema);
    assertThat(inferred.toStruct(Map.of("v", List.of(true, Map.of("k", 2L)))).getArray("v"))
        .containsExactly("true", "{\"k\":2}");
  }
}
