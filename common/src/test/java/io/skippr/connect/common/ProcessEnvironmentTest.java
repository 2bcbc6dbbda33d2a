package io.skippr.connect.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ProcessEnvironmentTest {
  private static final String NAME = "SKIPPR_TEST_ONLY_VARIABLE";

  @AfterEach
  void clear() {
    System.clearProperty(ProcessEnvironment.OVERRIDE_PREFIX + NAME);
  }

  @Test
  void aLauncherSetsAVariableForEverythingItRuns() {
    assertThat(ProcessEnvironment.variable(NAME)).isEmpty();
    assertThat(ProcessEnvironment.variables()).doesNotContainKey(NAME);

    ProcessEnvironment.set(NAME, "/srv/data");
    assertThat(ProcessEnvironment.variable(NAME)).contains("/srv/data");
    assertThat(ProcessEnvironment.variables()).containsEntry(NAME, "/srv/data");
  }

  @Test
  void theRealEnvironmentIsSeenWhenNothingWasSet() {
    String path = System.getenv("PATH");
    assertThat(ProcessEnvironment.variable("PATH")).contains(path);
    assertThat(ProcessEnvironment.variables()).containsEntry("PATH", path);
  }

  @Test
  void aSetVariableTakesThePlaceOfTheRealOne() {
    ProcessEnvironment.set("PATH", "/launcher/bin");
    try {
      assertThat(ProcessEnvironment.variable("PATH")).contains("/launcher/bin");
    } finally {
      System.clearProperty(ProcessEnvironment.OVERRIDE_PREFIX + "PATH");
    }
  }

  @Test
  void blankValuesCountAsUnset() {
    ProcessEnvironment.set(NAME, " ");
    assertThat(ProcessEnvironment.variable(NAME)).isEmpty();
  }
}
