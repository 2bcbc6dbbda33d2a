package io.skippr.connect.lake.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Log entries as this version writes them, damaged at random: each decodes to what was written or
 * is refused with a {@link LogFormatException} naming the entry; no wrong value is accepted, no
 * other exception escapes. Cases per property: {@code fuzz.tries} (10000; 1000000 with {@code
 * -Pfuzz}).
 */
class LogCodecFuzzTest {
  private static final String WHERE = "s3://bucket/lake/_skippr/log/t/0/00000000000000000007.json";

  @Provide
  Arbitrary<LogEntry> entries() {
    return LogEntries.any();
  }

  @Provide
  Arbitrary<String> lakes() {
    return LogEntries.key();
  }

  @Provide
  Arbitrary<Mutations> mutations() {
    return Mutations.any();
  }

  @Property
  void everyEntryDecodesToWhatWasWritten(
      @ForAll("entries") LogEntry entry, @ForAll("lakes") String lake) {
    LogCodec.Stored read = LogCodec.read(LogCodec.encode(entry, lake), WHERE);

    assertThat(read.entry()).isEqualTo(entry);
    assertThat(read.lake()).isEqualTo(lake);
  }

  @Property
  void aDamagedEntryIsRefusedOrReadsAsWritten(
      @ForAll("entries") LogEntry entry,
      @ForAll("lakes") String lake,
      @ForAll("mutations") Mutations damage) {
    byte[] damaged = damage.apply(LogCodec.encode(entry, lake));

    LogCodec.Stored read;
    try {
      read = LogCodec.read(damaged, WHERE);
    } catch (LogFormatException e) {
      assertThat(e.getMessage()).startsWith("log entry " + WHERE + " ");
      return;
    }
    assertThat(read.entry()).as(text(damaged)).isEqualTo(entry);
    assertThat(read.lake()).isEqualTo(lake);
  }

  @Provide
  Arbitrary<String> documents() {
    Arbitrary<String> field =
        Arbitraries.of(
            "version",
            "lake",
            "kind",
            "epoch",
            "id",
            "start",
            "end",
            "files",
            "liveFiles",
            "tables",
            "maxEpoch",
            "lastCommit",
            "key",
            "rows",
            "bytes",
            "sha256",
            "inputs",
            "outputs",
            "generation",
            "owner",
            "atMs");
    Arbitrary<String> value =
        Arbitraries.oneOf(
            Arbitraries.of(
                "1",
                "3",
                "0",
                "-1",
                "null",
                "true",
                "\"commit\"",
                "\"checkpoint\"",
                "\"epoch\"",
                "[]",
                "{}",
                "1.5",
                "\"1\"",
                "9223372036854775808",
                "[{\"key\":\"a\"}]",
                "[null]",
                "\"\""),
            LogEntries.text().map(s -> '"' + s.replace("\\", "").replace("\"", "") + '"'));
    return Arbitraries.entries(field, value)
        .list()
        .ofMaxSize(8)
        .map(
            fields -> {
              StringBuilder json = new StringBuilder("{");
              fields.forEach(
                  f ->
                      json.append(json.length() > 1 ? "," : "")
                          .append('"')
                          .append(f.getKey())
                          .append("\":")
                          .append(f.getValue()));
              return json.append('}').toString();
            });
  }

  @Property
  void anyDocumentIsReadOrRefusedWithoutAnotherException(@ForAll("documents") String json) {
    try {
      LogCodec.read(json.getBytes(StandardCharsets.UTF_8), WHERE);
    } catch (LogFormatException e) {
      assertThat(e.getMessage()).startsWith("log entry " + WHERE + " ");
    }
  }

  @Property
  void anyBytesAreReadOrRefusedWithoutAnotherException(@ForAll byte[] bytes) {
    try {
      LogCodec.read(bytes, WHERE);
    } catch (LogFormatException e) {
      assertThat(e.getMessage()).startsWith("log entry " + WHERE + " ");
    }
  }

  /**
   * Found by {@link #aDamagedEntryIsRefusedOrReadsAsWritten}: two flipped bits renamed {@code lake}
   * and {@code sha256}, and the entry read as one of an older writer, for no lake.
   */
  @Example
  void regressionTheNamesOfTheLakeAndTheChecksumDamaged() {
    String json =
        text(LogCodec.encode(new LogEntry.Epoch(1, null, 0), "lake-1"))
            .replace("\"lake\":", "\"lakd\":")
            .replace("\"sha256\":", "\"sha257\":");

    assertThatThrownBy(() -> LogCodec.read(json.getBytes(StandardCharsets.UTF_8), WHERE))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("cannot be read")
        .hasMessageContaining("lakd");
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
