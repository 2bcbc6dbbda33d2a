package io.skippr.connect.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProjectVersionTest {

  @Test
  void theVersionIsTheBuildsNotAPlaceholder() {
    assertThat(ProjectVersion.get()).matches("\\d+\\.\\d+\\.\\d+.*").doesNotContain("${");
  }
}
