package io.skippr.connect.source.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Connect gave up waiting for a task instance to stop and starts the next one on the same worker:
 * the old instance still holds the task's metric names (its plugin metrics are closed only when it
 * finally stops).
 */
class RestartedTaskMetricsTest {

  @TempDir Path dir;

  @Test
  void aTaskRestartedWhileTheOldInstanceHoldsItsMetricsStartsAndReportsItsOwn() throws Exception {
    Files.writeString(dir.resolve("a.ndjson"), FileSourceTaskTest.ndjson(0, 10));
    Map<String, String> props =
        Map.of("file.dir", dir.toString(), "file.format", "ndjson", "topic", "events");
    try (FileTaskHarness h = new FileTaskHarness(props).start()) {
      assertThat(h.drain()).hasSize(10);
      assertThat(h.metric("records-read-total")).isEqualTo(10.0);

      Files.writeString(dir.resolve("b.ndjson"), FileSourceTaskTest.ndjson(10, 15));
      Runnable oldStops = h.startNextBeforeTheOldStops();
      assertThat(h.drain()).as("nothing was committed: both files from the start").hasSize(15);
      assertThat(h.metric("records-read-total")).isEqualTo(15.0);
      assertThat(h.metric("files-completed-total")).isZero();

      oldStops.run();
      assertThat(h.metric("records-read-total"))
          .as("the old instance's late stop leaves the new one's metrics in place")
          .isEqualTo(15.0);
      assertThat(h.metric("lag-bytes")).isZero();
      assertThat(h.metric("files-open")).isNotNegative();
    }
  }
}
