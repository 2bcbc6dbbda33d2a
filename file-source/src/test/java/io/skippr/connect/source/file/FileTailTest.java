package io.skippr.connect.source.file;

import static io.skippr.connect.source.file.FileSourceTaskTest.ndjson;
import static io.skippr.connect.source.file.FileSourceTaskTest.numbers;
import static io.skippr.connect.source.file.FileSourceTaskTest.range;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Followed files (file.tail=true): appended lines, rotation by rename and copytruncate. */
class FileTailTest {

  @TempDir Path dir;

  private Map<String, String> props(String pattern, String... more) {
    Map<String, String> props = new HashMap<>();
    props.put("file.dir", dir.toString());
    props.put("file.format", "ndjson");
    props.put("topic", "logs");
    props.put("file.tail", "true");
    props.put("file.pattern", pattern);
    props.put("file.min.age.ms", "300");
    for (int i = 0; i < more.length; i += 2) {
      props.put(more[i], more[i + 1]);
    }
    return props;
  }

  private Path log() {
    return dir.resolve("app.log");
  }

  private static void append(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  @Test
  void appendedLinesAreReadAsTheyComeAndALineWaitsForItsNewline() throws Exception {
    append(log(), ndjson(0, 3));
    try (FileTaskHarness h = new FileTaskHarness(props("app.log")).start()) {
      assertThat(numbers(h.pollCount(3))).isEqualTo(range(0, 3));
      append(log(), "{\"n\":3,");
      assertThat(h.drain()).isEmpty();
      append(log(), "\"name\":\"item-3\"}\n" + ndjson(4, 6));
      assertThat(numbers(h.pollCount(3))).isEqualTo(range(3, 6));
    }
  }

  @Test
  void renameRotationLosesNothingAndReadsNothingTwice() throws Exception {
    for (String pattern : List.of("app.log*", "app.log")) {
      clean();
      append(log(), ndjson(0, 100));
      try (FileTaskHarness h = new FileTaskHarness(props(pattern)).start()) {
        h.pollCount(100);
        append(log(), ndjson(100, 150));
        Files.move(log(), dir.resolve("app.log.1")); // logrotate's create mode
        append(log(), ndjson(160, 200));
        append(dir.resolve("app.log.1"), ndjson(150, 160)); // the writer had it open still
        h.pollCount(100);
        h.drain();
        assertThat(numbers(h.committedAndPending()))
            .as("pattern " + pattern)
            .containsExactlyInAnyOrderElementsOf(range(0, 200));
      }
    }
  }

  @Test
  void copyTruncateWhileBehindReadsTheCopysTailThenTheNewContent() throws Exception {
    append(log(), ndjson(0, 100));
    try (FileTaskHarness h = new FileTaskHarness(props("app.log*")).start()) {
      h.pollCount(100);
      append(log(), ndjson(100, 130)); // written, not read yet
      Files.copy(log(), dir.resolve("app.log.1")); // logrotate's copytruncate
      try (FileChannel c = FileChannel.open(log(), StandardOpenOption.WRITE)) {
        c.truncate(0);
      }
      append(log(), ndjson(130, 150));
      h.pollCount(50);
      h.drain();
      // Each file in its order; the copy's tail and the new content may come in either order.
      assertThat(numbers(h.committedAndPending()))
          .containsExactlyInAnyOrderElementsOf(range(0, 150));
    }
  }

  @Test
  void aCopyOrACompressedCopyIsNotReadAgainAfterARestart() throws Exception {
    append(log(), ndjson(0, 80));
    try (FileTaskHarness h = new FileTaskHarness(props("app.log*")).start()) {
      h.pollCount(80);
      h.commit();
      Files.copy(log(), dir.resolve("app.log.1"));
      try (FileChannel c = FileChannel.open(log(), StandardOpenOption.WRITE)) {
        c.truncate(0);
      }
      h.crash(); // before any listing saw the rotation
      append(log(), ndjson(80, 90));
      h.pollCount(10);
      h.drain();
      h.commit();
      gzipAndDelete(dir.resolve("app.log.1"), dir.resolve("app.log.2.gz"));
      h.crash();
      h.drain();
      assertThat(numbers(h.committedAndPending())).isEqualTo(range(0, 90));
    }
  }

  @Test
  void aCompressedRotationOfARenamedFileIsNotReadAgain() throws Exception {
    append(log(), ndjson(0, 40));
    try (FileTaskHarness h = new FileTaskHarness(props("app.log*")).start()) {
      h.pollCount(40);
      Files.move(log(), dir.resolve("app.log.1"));
      append(log(), ndjson(40, 50));
      h.pollCount(10);
      h.commit();
      gzipAndDelete(dir.resolve("app.log.1"), dir.resolve("app.log.1.gz"));
      h.drain();
      h.restart();
      h.drain();
      assertThat(numbers(h.committedAndPending())).isEqualTo(range(0, 50));
    }
  }

  @Test
  void filesThatBeginWithTheSameLineButDifferAreBothRead() throws Exception {
    String banner = "{\"n\":-1,\"name\":\"service started\"}\n";
    append(dir.resolve("a.log"), banner + ndjson(0, 10));
    append(dir.resolve("b.log"), banner + ndjson(10, 20));
    try (FileTaskHarness h = new FileTaskHarness(props("*.log")).start()) {
      h.pollCount(22);
      h.drain();
      assertThat(numbers(h.committedAndPending()))
          .containsExactlyInAnyOrderElementsOf(
              List.of(
                  -1L, -1L, 0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L,
                  16L, 17L, 18L, 19L));
    }
  }

  @Test
  void aFileThatBeginsLikeAnotherButGrowsOnItsOwnIsReadFromItsStart() throws Exception {
    String start = ndjson(0, 5);
    append(dir.resolve("a.log"), start);
    try (FileTaskHarness h = new FileTaskHarness(props("*.log")).start()) {
      h.pollCount(5);
      append(dir.resolve("b.log"), start); // looks like a copy of a.log
      h.drain();
      append(dir.resolve("b.log"), ndjson(100, 103)); // but it grows while a.log is there
      append(dir.resolve("a.log"), ndjson(5, 7));
      h.pollCount(10);
      h.drain();
      assertThat(numbers(h.committedAndPending()))
          .containsExactlyInAnyOrderElementsOf(
              List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 0L, 1L, 2L, 3L, 4L, 100L, 101L, 102L));
    }
  }

  @Test
  void anUnterminatedLastLineIsSentWhenItsFileIsClosed() throws Exception {
    append(log(), ndjson(0, 2) + "{\"n\":2}");
    try (FileTaskHarness h = new FileTaskHarness(props("app.log")).start()) {
      h.pollCount(2);
      Files.move(log(), dir.resolve("app.log.old"));
      List<SourceRecord> last = h.pollCount(1);
      assertThat(numbers(last)).containsExactly(2L);
      h.pollUntil(() -> h.metric("files-open") == 0);
    }
  }

  private void clean() throws IOException {
    try (var files = Files.list(dir)) {
      for (Path p : files.toList()) {
        Files.delete(p);
      }
    }
  }

  private static void gzipAndDelete(Path from, Path to) throws IOException {
    try (InputStream in = Files.newInputStream(from);
        OutputStream out = new GZIPOutputStream(Files.newOutputStream(to))) {
      in.transferTo(out);
    }
    Files.delete(from);
  }
}
