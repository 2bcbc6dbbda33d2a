package io.skippr.connect.source.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.file.track.FileOffset;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finished files (file.tail=false) read by a real task from a real directory. */
class FileSourceTaskTest {

  @TempDir Path dir;

  private Map<String, String> props(String... more) {
    Map<String, String> props = new HashMap<>();
    props.put("file.dir", dir.toString());
    props.put("file.format", "ndjson");
    props.put("topic", "events");
    for (int i = 0; i < more.length; i += 2) {
      props.put(more[i], more[i + 1]);
    }
    return props;
  }

  static String ndjson(int from, int to) {
    StringBuilder sb = new StringBuilder();
    for (int i = from; i < to; i++) {
      sb.append("{\"n\":").append(i).append(",\"name\":\"item-").append(i).append("\"}\n");
    }
    return sb.toString();
  }

  static List<Long> numbers(List<SourceRecord> records) {
    List<Long> out = new ArrayList<>();
    for (SourceRecord r : records) {
      out.add((Long) ((Map<?, ?>) r.value()).get("n"));
    }
    return out;
  }

  static List<Long> range(int from, int to) {
    List<Long> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(i);
    }
    return out;
  }

  static FileOffset offset(SourceRecord r) {
    return FileOffset.fromMap(r.sourceOffset());
  }

  @Test
  void jsonEncodingSendsTheBytesJsonConverterWritesRejectionsToo() throws Exception {
    Files.writeString(
        dir.resolve("a.ndjson"),
        "{\"n\":1,\"s\":\"\\u00e9\",\"x\":1.50}\nnot json\n{\"n\":2,\"n\":3}\n");
    Files.writeString(dir.resolve("b.csv"), "a,b\n1,\n");
    Map<String, String> ndjson =
        props("record.encoding", "json", "rejections.topic", "bad", "file.pattern", "*.ndjson");
    try (FileTaskHarness h = new FileTaskHarness(ndjson).start()) {
      List<SourceRecord> records = h.drain();
      assertThat(records)
          .extracting(SourceRecord::topic)
          .containsExactly("events", "bad", "events");
      assertThat(text(records.get(0)))
          .isEqualTo("{\"schema\":null,\"payload\":{\"n\":1,\"s\":\"\u00e9\",\"x\":1.5}}");
      assertThat(text(records.get(1)))
          .startsWith("{\"schema\":{\"type\":\"struct\",\"fields\":[")
          .contains("\"reason\":\"malformed JSON: ");
      assertThat(text(records.get(2))).isEqualTo("{\"schema\":null,\"payload\":{\"n\":3}}");
    }
    Map<String, String> csv =
        props(
            "record.encoding",
            "json",
            "record.encoding.json.schemas.enable",
            "false",
            "file.format",
            "csv",
            "file.pattern",
            "*.csv");
    try (FileTaskHarness h = new FileTaskHarness(csv).start()) {
      assertThat(h.drain())
          .extracting(FileSourceTaskTest::text)
          .containsExactly("{\"a\":\"1\",\"b\":null}");
    }
  }

  private static String text(SourceRecord r) {
    assertThat(r.valueSchema())
        .isEqualTo(org.apache.kafka.connect.data.Schema.OPTIONAL_BYTES_SCHEMA);
    return new String((byte[]) r.value(), StandardCharsets.UTF_8);
  }

  @Test
  void linesBecomeRecordsEachCarryingTheOffsetAfterIt() throws Exception {
    String text = "{\"n\":0}\n\n{\"n\":1}\r\nnot json\n{\"n\":2}";
    Files.writeString(dir.resolve("a.ndjson"), text);
    try (FileTaskHarness h = new FileTaskHarness(props()).start()) {
      List<SourceRecord> records = h.drain();
      assertThat(numbers(records)).containsExactly(0L, 1L, 2L);
      assertThat(records).extracting(SourceRecord::topic).containsOnly("events");
      assertThat(records.stream().map(r -> offset(r).position()))
          .containsExactly(8L, (long) text.indexOf("not"), (long) text.length());
      assertThat(records.stream().map(r -> offset(r).line())).containsExactly(1L, 3L, 5L);
      assertThat(offset(records.get(0)).path()).isEqualTo("a.ndjson");
      assertThat(records.get(0).sourcePartition()).containsOnlyKeys("file");
      assertThat(h.metric("rejected-records-total")).isEqualTo(1.0);
      assertThat(h.metric("records-read-total")).isEqualTo(3.0);
      assertThat(h.metric("bytes-read-total")).isEqualTo(text.length());
    }
  }

  @Test
  void aRestartSeeksToTheCommittedPositionAndReadsOnlyTheRest() throws Exception {
    String text = ndjson(0, 1000);
    Files.writeString(dir.resolve("big.ndjson"), text);
    try (FileTaskHarness h = new FileTaskHarness(props("file.batch.max.records", "100")).start()) {
      List<SourceRecord> first = h.pollCount(300);
      h.restart();
      long committedAt = offset(first.get(first.size() - 1)).position();
      List<SourceRecord> rest = h.drain();
      assertThat(numbers(rest)).isEqualTo(range(first.size(), 1000));
      assertThat(h.metric("bytes-read-total"))
          .as("bytes read after the restart: only those after the committed offset")
          .isEqualTo(text.length() - committedAt);
      assertThat(offset(rest.get(0)).line()).isEqualTo(first.size() + 1L);
    }
  }

  @Test
  void crashesLoseOnlyWhatWasNotCommittedAndNothingIsReadTwice() throws Exception {
    Files.writeString(dir.resolve("a.ndjson"), ndjson(0, 3000));
    Files.writeString(dir.resolve("b.ndjson"), ndjson(3000, 5000));
    try (FileTaskHarness h = new FileTaskHarness(props("file.batch.max.records", "250")).start()) {
      for (int round = 0; round < 12; round++) {
        h.pollCount(1);
        h.poll();
        if (round % 2 == 0) {
          h.commit();
        }
        h.crash();
      }
      h.drain();
      h.commit();
      List<Long> all = numbers(h.committed);
      assertThat(all).hasSize(5000).doesNotHaveDuplicates().containsAll(range(0, 5000));
    }
  }

  @Test
  void aFileIsReadOnlyOnceItHasNotChangedForTheMinimumAge() throws Exception {
    Path file = dir.resolve("young.ndjson");
    Files.writeString(file, ndjson(0, 3));
    try (FileTaskHarness h = new FileTaskHarness(props("file.min.age.ms", "60000")).start()) {
      assertThat(h.drain()).isEmpty();
      Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - 61_000));
      assertThat(numbers(h.drain())).containsExactly(0L, 1L, 2L);
    }
  }

  @Test
  void aRenamedFileIsTheSameFile() throws Exception {
    Files.writeString(dir.resolve("export.ndjson"), ndjson(0, 500));
    try (FileTaskHarness h = new FileTaskHarness(props("file.batch.max.records", "100")).start()) {
      List<SourceRecord> first = h.pollCount(100);
      h.commit();
      Files.move(dir.resolve("export.ndjson"), dir.resolve("renamed.ndjson"));
      List<SourceRecord> rest = h.drain();
      assertThat(numbers(rest)).isEqualTo(range(first.size(), 500));
      h.restart();
      Files.move(dir.resolve("renamed.ndjson"), dir.resolve("again.ndjson"));
      assertThat(h.drain()).isEmpty();
      Files.writeString(dir.resolve("again.ndjson"), ndjson(500, 501), StandardOpenOption.APPEND);
      List<SourceRecord> appended = h.drain();
      assertThat(numbers(appended)).containsExactly(500L);
      assertThat(offset(appended.get(0)).path()).isEqualTo("again.ndjson");
    }
  }

  @Test
  void aFileRewrittenInPlaceWithOtherFirstBytesIsNewContent() throws Exception {
    Path file = dir.resolve("data.ndjson");
    Files.writeString(file, ndjson(0, 10));
    try (FileTaskHarness h = new FileTaskHarness(props()).start()) {
      assertThat(numbers(h.drain())).isEqualTo(range(0, 10));
      h.commit();
      Files.writeString(file, ndjson(100, 130), StandardOpenOption.TRUNCATE_EXISTING);
      assertThat(numbers(h.drain())).isEqualTo(range(100, 130));
      assertThat(h.metric("files-shrunk-total")).isZero();
    }
  }

  @Test
  void aFileThatShrankBelowItsOffsetIsReportedAndReadAgainFromItsStart() throws Exception {
    Path file = dir.resolve("data.ndjson");
    Files.writeString(file, ndjson(0, 200));
    try (FileTaskHarness h = new FileTaskHarness(props()).start()) {
      h.drain();
      h.restart();
      // The same first kilobyte, fewer lines: rewritten in place while the task was down.
      Files.writeString(file, ndjson(0, 100), StandardOpenOption.TRUNCATE_EXISTING);
      assertThat(numbers(h.drain())).isEqualTo(range(0, 100));
      assertThat(h.metric("files-shrunk-total")).isEqualTo(1.0);
      // And while it runs.
      Files.writeString(file, ndjson(0, 60), StandardOpenOption.TRUNCATE_EXISTING);
      assertThat(numbers(h.drain())).isEqualTo(range(0, 60));
      assertThat(h.metric("files-shrunk-total")).isEqualTo(2.0);
    }
  }

  @Test
  void deleteHappensOnlyAfterKafkaCommittedTheLastRecord() throws Exception {
    Path file = dir.resolve("done.ndjson");
    Files.writeString(file, ndjson(0, 5));
    try (FileTaskHarness h =
        new FileTaskHarness(props("file.completed.policy", "delete")).start()) {
      assertThat(h.drain()).hasSize(5);
      h.drain();
      assertThat(file).as("not committed yet").exists();
      h.commit();
      h.pollUntil(() -> !Files.exists(file));
      assertThat(h.metric("files-completed-total")).isEqualTo(1.0);
      try (var entries = Files.list(dir)) {
        assertThat(entries).as("no marker files").isEmpty();
      }
    }
  }

  @Test
  void moveKeepsTheRelativePathAndNeverOverwrites() throws Exception {
    Path done = dir.resolve("done");
    Files.createDirectories(dir.resolve("in/2024"));
    Files.writeString(dir.resolve("in/2024/a.ndjson"), ndjson(0, 2));
    Files.createDirectories(done.resolve("in/2024"));
    Files.writeString(done.resolve("in/2024/a.ndjson"), "older");
    Map<String, String> props =
        props(
            "file.completed.policy", "move",
            "file.completed.dir", done.toString(),
            "file.recursive", "true",
            "file.pattern", "**.ndjson");
    try (FileTaskHarness h = new FileTaskHarness(props).start()) {
      assertThat(h.drain()).hasSize(2);
      h.commit();
      h.pollUntil(() -> !Files.exists(dir.resolve("in/2024/a.ndjson")));
      assertThat(done.resolve("in/2024/a.ndjson")).hasContent("older");
      assertThat(done.resolve("in/2024/a.ndjson.1")).hasContent(ndjson(0, 2).strip());
      assertThat(h.drain()).as("the completed directory is never listed").isEmpty();
    }
  }

  @Test
  void aSymbolicLinkAsTheDirectoryIsFollowed() throws Exception {
    Path real = Files.createDirectories(dir.resolve("real"));
    Path link = Files.createSymbolicLink(dir.resolve("link"), real);
    Files.writeString(real.resolve("a.ndjson"), ndjson(0, 4));
    Map<String, String> props = props("file.completed.policy", "delete");
    props.put("file.dir", link.toString());
    try (FileTaskHarness h = new FileTaskHarness(props).start()) {
      assertThat(numbers(h.drain())).isEqualTo(range(0, 4));
      h.commit();
      h.pollUntil(() -> !Files.exists(real.resolve("a.ndjson")));
    }
  }

  @Test
  void aKeptFileThatGrowsIsReadOnFromItsOffset() throws Exception {
    Path file = dir.resolve("kept.ndjson");
    Files.writeString(file, ndjson(0, 3));
    try (FileTaskHarness h = new FileTaskHarness(props()).start()) {
      assertThat(numbers(h.drain())).isEqualTo(range(0, 3));
      h.commit();
      h.drain();
      Files.writeString(file, ndjson(3, 6), StandardOpenOption.APPEND);
      assertThat(numbers(h.drain())).isEqualTo(range(3, 6));
    }
  }

  @Test
  void gzipFilesAreReadDecompressedAndResumeMidFile() throws Exception {
    gzip(dir.resolve("part.ndjson.gz"), ndjson(0, 2000));
    try (FileTaskHarness h = new FileTaskHarness(props("file.batch.max.records", "300")).start()) {
      List<SourceRecord> first = h.pollCount(300);
      h.restart();
      List<SourceRecord> rest = h.drain();
      assertThat(numbers(rest)).isEqualTo(range(first.size(), 2000));
      assertThat(offset(rest.get(rest.size() - 1)).position()).isEqualTo(ndjson(0, 2000).length());
    }
  }

  @Test
  void aTruncatedGzipFileGivesItsRecordsAndOneRejection() throws Exception {
    Path whole = dir.resolve("whole.gz.tmp");
    gzip(whole, ndjson(0, 5000));
    byte[] bytes = Files.readAllBytes(whole);
    Files.delete(whole);
    Files.write(dir.resolve("cut.ndjson.gz"), java.util.Arrays.copyOf(bytes, bytes.length / 2));
    try (FileTaskHarness h =
        new FileTaskHarness(props("rejections.topic", "bad", "file.pattern", "*.gz")).start()) {
      List<SourceRecord> records = h.drain();
      List<SourceRecord> data = records.stream().filter(r -> r.topic().equals("events")).toList();
      List<SourceRecord> bad = records.stream().filter(r -> r.topic().equals("bad")).toList();
      assertThat(numbers(data)).isEqualTo(range(0, data.size()));
      assertThat(data.size()).isBetween(100, 4999);
      assertThat(bad).hasSize(1);
      assertThat(((Struct) bad.get(0).value()).getString("reason")).startsWith("gzip content");
    }
  }

  @Test
  void aGzipFileWhoseSecondMemberIsDamagedGivesTheFirstMemberAndOneRejection() throws Exception {
    // The JDK's reader ended such a file after its first member without an error: the rest was
    // lost and the file completed.
    Path tmp = dir.resolve("members.tmp");
    gzip(tmp, ndjson(0, 100));
    byte[] first = Files.readAllBytes(tmp);
    gzip(tmp, ndjson(100, 200));
    byte[] second = Files.readAllBytes(tmp);
    Files.delete(tmp);
    second[0] = ' ';
    byte[] file = java.util.Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, file, first.length, second.length);
    Files.write(dir.resolve("two.ndjson.gz"), file);
    try (FileTaskHarness h =
        new FileTaskHarness(props("rejections.topic", "bad", "file.pattern", "*.gz")).start()) {
      List<SourceRecord> records = h.drain();
      List<SourceRecord> bad = records.stream().filter(r -> r.topic().equals("bad")).toList();
      assertThat(numbers(records.stream().filter(r -> r.topic().equals("events")).toList()))
          .isEqualTo(range(0, 100));
      assertThat(bad).hasSize(1);
      assertThat(((Struct) bad.get(0).value()).getString("reason"))
          .startsWith("gzip content cannot be read on at byte " + ndjson(0, 100).length());
    }
  }

  @Test
  void anEmptyOrPlainFileNamedGzIsOneRejectionAndCompletes() throws Exception {
    // Opening them failed (the JDK's reader reads the header at once), so they were tried again
    // at every listing, never rejected and never completed.
    Files.write(dir.resolve("empty.ndjson.gz"), new byte[0]);
    Files.writeString(dir.resolve("plain.ndjson.gz"), ndjson(0, 3));
    Map<String, String> props =
        props("rejections.topic", "bad", "file.pattern", "*.gz", "file.completed.policy", "delete");
    try (FileTaskHarness h = new FileTaskHarness(props).start()) {
      List<SourceRecord> records = h.drain();
      assertThat(records).extracting(SourceRecord::topic).containsExactly("bad", "bad");
      assertThat(records)
          .extracting(r -> ((Struct) r.value()).getString("reason"))
          .allSatisfy(reason -> assertThat(reason).startsWith("gzip content cannot be read on"));
      h.commit();
      h.pollUntil(() -> !Files.exists(dir.resolve("plain.ndjson.gz")));
      h.pollUntil(() -> !Files.exists(dir.resolve("empty.ndjson.gz")));
    }
  }

  @Test
  void rejectedLinesGoToTheRejectionsTopicWithFileLineOffsetAndReason() throws Exception {
    String text = "{\"n\":0}\n{broken\n" + "{\"n\":\"" + "x".repeat(5000) + "\"}\n{\"n\":3}\n";
    Files.writeString(dir.resolve("mixed.ndjson"), text);
    Map<String, String> props = props("rejections.topic", "bad", "file.max.line.bytes", "1024");
    try (FileTaskHarness h = new FileTaskHarness(props).start()) {
      List<SourceRecord> records = h.drain();
      assertThat(records)
          .extracting(SourceRecord::topic)
          .containsExactly("events", "bad", "bad", "events");
      Struct broken = (Struct) records.get(1).value();
      assertThat(broken.getString("file")).isEqualTo("mixed.ndjson");
      assertThat(broken.getInt64("line")).isEqualTo(2L);
      assertThat(broken.getInt64("byte_offset")).isEqualTo(8L);
      assertThat(broken.getString("reason")).startsWith("malformed JSON");
      assertThat(broken.getString("input")).isEqualTo("{broken");
      Struct longLine = (Struct) records.get(2).value();
      assertThat(longLine.getString("reason")).isEqualTo("line longer than 1024 bytes");
      assertThat(longLine.getBoolean("input_truncated")).isTrue();
      assertThat(longLine.getInt64("line")).isEqualTo(3L);
      assertThat(offset(records.get(2)).position()).isEqualTo(text.indexOf("{\"n\":3}"));
    }
  }

  @Test
  void eachPollIsOneTransactionWhenTheConnectorDefinesBoundaries() throws Exception {
    Files.writeString(dir.resolve("a.ndjson"), ndjson(0, 250));
    try (FileTaskHarness h = new FileTaskHarness(props("file.batch.max.records", "100"))) {
      h.transactional = true;
      h.start();
      h.drain();
      assertThat(h.transactionsCommitted).isEqualTo(3);
    }
  }

  @Test
  void tasksShareTheFilesByIdentityWithoutOverlap() throws Exception {
    for (int f = 0; f < 20; f++) {
      Files.writeString(dir.resolve("f" + f + ".ndjson"), ndjson(f * 10, f * 10 + 10));
    }
    List<Long> seen = new ArrayList<>();
    List<Integer> perTask = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      try (FileTaskHarness h =
          new FileTaskHarness(props("file.task.index", Integer.toString(t), "file.task.count", "3"))
              .start()) {
        List<Long> got = numbers(h.drain());
        perTask.add(got.size());
        seen.addAll(got);
      }
    }
    assertThat(seen).hasSize(200).doesNotHaveDuplicates();
    assertThat(perTask).allSatisfy(n -> assertThat(n).isPositive());
  }

  @Test
  void lagPerFileIsPublished() throws Exception {
    Files.writeString(dir.resolve("a.ndjson"), ndjson(0, 1000));
    try (FileTaskHarness h = new FileTaskHarness(props("file.batch.max.records", "100")).start()) {
      h.pollCount(100);
      assertThat(h.fileLag("a.ndjson")).isPositive();
      h.drain();
      assertThat(h.fileLag("a.ndjson")).isZero();
      assertThat(h.metric("files-open")).isZero();
    }
  }

  static void gzip(Path file, String text) throws IOException {
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }
}
