package io.skippr.connect.lake.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.convert.FormatConfig.NullValues;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.TableSchemaLog;
import io.skippr.connect.lake.storage.InMemoryLakeStorage;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.connect.data.Schema;
import org.junit.jupiter.api.Test;

/**
 * One schema per schemaless table across tasks and restarts: converters of two tasks share a lake,
 * and the first to evolve a table decides its types for both.
 */
class SharedTableSchemaTest {
  private final InMemoryLakeStorage lake = new InMemoryLakeStorage();
  private final LakeLayout layout = new LakeLayout();

  private LakeRowConverter task() {
    return new LakeRowConverter(
        Records.config(false, false, NullValues.IGNORE, "${topic}"),
        new TableSchemaLog(lake, layout));
  }

  private static Schema.Type typeOf(LakeRow row, String field) {
    return row.row().schema().field(field).schema().type();
  }

  @Test
  void twoTasksWithConflictingFirstRecordsWriteTheSameColumnTypes() throws Exception {
    LakeRowConverter first = task();
    LakeRowConverter second = task();
    LakeRow a = first.convert(Records.json("t", "{\"id\":1,\"code\":7}", 0));
    assertThat(typeOf(a, "code")).isEqualTo(Schema.Type.INT32);

    assertThatThrownBy(() -> second.convert(Records.json("t", "{\"id\":2,\"code\":\"x\"}", 1)))
        .isInstanceOf(RecordRejectedException.class)
        .hasMessageContaining("field code: expected int32, got string \"x\"");
    LakeRow b = second.convert(Records.json("t", "{\"id\":3,\"code\":8}", 2));
    assertThat(typeOf(b, "code")).isEqualTo(Schema.Type.INT32);
    assertThat(b.row().schema()).isEqualTo(a.row().schema());
    assertThat(lake.list(layout.schemaPrefix("t"))).hasSize(1);
  }

  @Test
  void anEvolutionByOneTaskIsTheOtherTasksWhenItMeetsTheSameField() throws Exception {
    LakeRowConverter first = task();
    LakeRowConverter second = task();
    first.convert(Records.json("t", "{\"id\":1}", 0));
    second.convert(Records.json("t", "{\"id\":2}", 0));
    first.convert(Records.json("t", "{\"id\":3,\"note\":\"n\"}", 1)); // version 2
    assertThatThrownBy(() -> second.convert(Records.json("t", "{\"id\":4,\"note\":5}", 1)))
        .as("the second task's own evolution lost to the first's")
        .hasMessageContaining("field note: expected string, got number 5");
    assertThat(typeOf(second.convert(Records.json("t", "{\"id\":5,\"note\":\"m\"}", 2)), "note"))
        .isEqualTo(Schema.Type.STRING);
    assertThat(lake.list(layout.schemaPrefix("t"))).hasSize(2);
  }

  @Test
  void aRestartContinuesWithTheStoredSchema() throws Exception {
    task().convert(Records.json("t", "{\"id\":5000000000,\"score\":1.5}", 0));
    LakeRow row = task().convert(Records.json("t", "{\"id\":1,\"score\":2}", 1));
    assertThat(typeOf(row, "id")).as("int64 from before the restart").isEqualTo(Schema.Type.INT64);
    assertThat(typeOf(row, "score")).isEqualTo(Schema.Type.FLOAT64);
    String stored = new String(lake.read(layout.schemaKey("t", 1)), StandardCharsets.UTF_8);
    assertThat(stored).startsWith("{\"version\":1,\"kind\":\"table-schema\",\"table\":\"t\"");
  }

  @Test
  void recordsThatFitTheStoredSchemaReadNothingMore() throws Exception {
    LakeRowConverter task = task();
    task.convert(Records.json("t", "{\"id\":1}", 0));
    int before = lake.list("").size();
    for (int i = 1; i < 100; i++) {
      task.convert(Records.json("t", "{\"id\":" + i + "}", i));
    }
    assertThat(lake.list("")).hasSize(before);
  }
}
