package io.skippr.connect.source.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.source.file.track.FileOffset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CSV and line protocol files through a real task. */
class FileFormatsTaskTest {

  @TempDir Path dir;

  @Test
  void csvWithByteOrderMarkCrlfAndQuotedNewlinesKeepsItsHeaderAcrossARestart() throws Exception {
    StringBuilder csv = new StringBuilder("\uFEFFid,comment,amount\r\n");
    for (int i = 0; i < 500; i++) {
      String comment = i % 3 == 0 ? "\"line one\r\nline \"\"two\"\", end\"" : "plain " + i;
      csv.append(i).append(',').append(comment).append(',').append(i % 5 == 0 ? "" : i + ".5");
      csv.append("\r\n");
    }
    Files.write(dir.resolve("export.csv"), csv.toString().getBytes(StandardCharsets.UTF_8));
    Map<String, String> props =
        Map.of(
            "file.dir", dir.toString(),
            "file.format", "csv",
            "topic", "rows",
            "file.batch.max.records", "120");
    try (FileTaskHarness h = new FileTaskHarness(props).start()) {
      List<SourceRecord> rows = new ArrayList<>(h.pollCount(120));
      h.restart();
      rows.addAll(h.drain());
      assertThat(rows).hasSize(500);
      for (int i = 0; i < 500; i++) {
        Map<?, ?> row = (Map<?, ?>) rows.get(i).value();
        assertThat(new ArrayList<Object>(row.keySet())).containsExactly("id", "comment", "amount");
        assertThat(row.get("id")).isEqualTo(Integer.toString(i));
        assertThat(row.get("comment"))
            .isEqualTo(i % 3 == 0 ? "line one\r\nline \"two\", end" : "plain " + i);
        assertThat(row.get("amount")).isEqualTo(i % 5 == 0 ? null : i + ".5");
      }
      FileOffset last = FileOffset.fromMap(rows.get(499).sourceOffset());
      assertThat(last.position()).isEqualTo(csv.toString().getBytes(StandardCharsets.UTF_8).length);
      assertThat(last.line()).isEqualTo(1 + 500 + 167);
    }
  }

  @Test
  void lineProtocolGoesToOneTopicPerMeasurementKeyedByThePointsIdentity() throws Exception {
    String lines =
        "# telegraf file output\n"
            + "cpu,host=a,cpu=cpu0 usage_user=1.5,usage_system=0.5 1700000000000000000\n"
            + "mem,host=a used=123i,available_percent=80.5 1700000000000000000\n"
            + "cpu,host=b usage_user=2.5 1700000001000000000\n"
            + "cpu,host=c usage_user=\"not a float\" 1700000002000000000\n";
    Files.writeString(dir.resolve("metrics.out"), lines);
    Map<String, String> props =
        Map.of(
            "file.dir", dir.toString(),
            "file.format", "lineprotocol",
            "topic.prefix", "telegraf.",
            "rejections.topic", "telegraf-rejected");
    try (FileTaskHarness h = new FileTaskHarness(props).start()) {
      List<SourceRecord> records = h.drain();
      assertThat(records)
          .extracting(SourceRecord::topic, SourceRecord::key)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(
                  "telegraf.cpu", "cpu,cpu=cpu0,host=a 1700000000000000000"),
              org.assertj.core.groups.Tuple.tuple("telegraf.mem", "mem,host=a 1700000000000000000"),
              org.assertj.core.groups.Tuple.tuple("telegraf.cpu", "cpu,host=b 1700000001000000000"),
              org.assertj.core.groups.Tuple.tuple("telegraf-rejected", null));
      Struct cpu = (Struct) records.get(0).value();
      assertThat(cpu.get("usage_user")).isEqualTo(1.5);
      assertThat(cpu.get("host")).isEqualTo("a");
      assertThat(records.get(0).timestamp()).isEqualTo(1_700_000_000_000L);
      Struct rejected = (Struct) records.get(3).value();
      assertThat(rejected.getInt64("line")).isEqualTo(5L);
      assertThat(rejected.getString("format")).isEqualTo("lineprotocol");
      assertThat(rejected.getString("reason")).contains("already has it as a float field");
    }
  }
}
