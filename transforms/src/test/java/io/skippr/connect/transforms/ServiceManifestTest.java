package io.skippr.connect.transforms;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.connect.transforms.Transformation;
import org.junit.jupiter.api.Test;

class ServiceManifestTest {
  private static final List<String> EXPECTED =
      List.of(
          "io.skippr.connect.transforms.InferSchema$Key",
          "io.skippr.connect.transforms.InferSchema$Value",
          "io.skippr.connect.transforms.NamespaceRouter",
          "io.skippr.connect.transforms.NormalizeTimestamp$Key",
          "io.skippr.connect.transforms.NormalizeTimestamp$Value",
          "io.skippr.connect.transforms.ValidateContract");

  @Test
  void listsEveryTransformationWithItsConfigAndTheBuildVersion() throws Exception {
    List<String> listed = manifest();
    assertThat(listed).containsExactlyInAnyOrderElementsOf(EXPECTED);
    for (String name : listed) {
      Transformation<?> smt =
          (Transformation<?>) Class.forName(name).getDeclaredConstructor().newInstance();
      assertThat(smt.config().configKeys()).as(name).isNotEmpty();
      smt.config().configKeys().values().forEach(k -> assertThat(k.documentation).isNotBlank());
      assertThat(smt.version()).as(name).matches("\\d+\\.\\d+\\.\\d+.*");
    }
  }

  private static List<String> manifest() throws IOException {
    try (InputStream in =
        ServiceManifestTest.class.getResourceAsStream(
            "/META-INF/services/org.apache.kafka.connect.transforms.Transformation")) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return Arrays.stream(text.split("\n")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
  }
}
