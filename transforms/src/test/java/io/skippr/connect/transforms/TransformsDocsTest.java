package io.skippr.connect.transforms;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/** docs/transforms.md documents every transformation and every one of its keys. */
class TransformsDocsTest {
  @Test
  void everyKeyIsDocumented() throws Exception {
    String doc = Files.readString(Path.of("../docs/transforms.md"));
    Map<String, ConfigDef> defs =
        Map.of(
            "InferSchema", InferSchema.CONFIG_DEF,
            "NormalizeTimestamp", NormalizeTimestamp.CONFIG_DEF,
            "NamespaceRouter", NamespaceRouter.CONFIG_DEF,
            "ValidateContract", ValidateContract.CONFIG_DEF);
    defs.forEach(
        (name, def) -> {
          String section = section(doc, name);
          for (String key : def.names()) {
            assertThat(section).as(name + " documents " + key).contains("`" + key + "`");
          }
        });
  }

  private static String section(String doc, String name) {
    int start = doc.indexOf("\n## " + name + "\n");
    assertThat(start).as("section ## " + name).isNotNegative();
    int end = doc.indexOf("\n## ", start + 1);
    return end < 0 ? doc.substring(start) : doc.substring(start, end);
  }
}
