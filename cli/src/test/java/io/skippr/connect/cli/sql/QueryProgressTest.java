package io.skippr.connect.cli.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class QueryProgressTest {
  @Test
  void drawsTheBarWhileTheQueryRunsAndWipesItAfter() {
    StringWriter terminal = new StringWriter();
    QueryProgress progress = new QueryProgress(new PrintWriter(terminal));

    QueryProgress.Watch watch = progress.watch(() -> 42.0);
    Await.until(Duration.ofSeconds(30), "the bar", () -> terminal.toString().contains("%"));
    watch.close();

    String bar = "[#############                 ]  42%";
    String wipe = "\r" + " ".repeat(bar.length()) + "\r";
    assertThat(terminal.toString()).startsWith("\r" + bar).endsWith(bar + wipe);
    assertThat(terminal.toString().replace("\r" + bar, "")).isEqualTo(wipe);
  }
}
