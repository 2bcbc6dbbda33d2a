package io.skippr.connect.source.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large file (default 256 MiB, {@code -Dfile.memory.bytes=1073741824} for the 1 GiB run) with a
 * 96 MiB line in the middle is read by a real task in a JVM with a 48 MiB heap: a source that
 * buffered a file, or a line, would run out of memory. The heap the old generation holds after
 * collections stays small however large the file is.
 */
class FileSourceMemoryIT {

  private static final long BYTES = Long.getLong("file.memory.bytes", 256L << 20);
  private static final int HUGE_LINE = 96 << 20;
  private static final String HEAP = "48m";

  @TempDir Path dir;

  @Test
  void aLargeFileWithAHugeLineIsReadInASmallHeap() throws Exception {
    long lines = writeFile(dir.resolve("big.ndjson"));
    Path out = dir.resolve("probe.out");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + HEAP);
    command.add("-XX:+UseSerialGC");
    command.add("-cp");
    command.add(
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    command.add(MemoryProbe.class.getName());
    command.add(dir.toString());
    command.add(Long.toString(lines));
    long start = System.nanoTime();
    Process probe =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    assertThat(probe.waitFor(10, TimeUnit.MINUTES)).as("probe finished").isTrue();
    String output = Files.readString(out);
    assertThat(probe.exitValue()).as(output).isZero();
    String result = output.lines().filter(l -> l.startsWith("records=")).findFirst().orElseThrow();
    long records = Long.parseLong(result.replaceAll(".*records=(\\d+).*", "$1"));
    long maxOld = Long.parseLong(result.replaceAll(".*maxOldAfterGc=(\\d+).*", "$1"));
    System.out.printf(
        "memory: %,d bytes, %,d records in %.1f s with -Xmx%s; old generation after GC at most %,d"
            + " bytes%n",
        Files.size(dir.resolve("big.ndjson")),
        records,
        (System.nanoTime() - start) / 1e9,
        HEAP,
        maxOld);
    assertThat(records).isEqualTo(lines);
    assertThat(maxOld).as("old generation after GC").isLessThan(24L << 20);
  }

  /** Writes the file; returns its good lines (the huge one is rejected). */
  private static long writeFile(Path file) throws IOException {
    long lines = 0;
    long written = 0;
    boolean huge = false;
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      StringBuilder sb = new StringBuilder(256);
      while (written < BYTES) {
        if (!huge && written > BYTES / 2) {
          w.write("{\"huge\":\"");
          char[] chunk = new char[1 << 20];
          java.util.Arrays.fill(chunk, 'x');
          for (int i = 0; i < HUGE_LINE >> 20; i++) {
            w.write(chunk);
          }
          w.write("\"}\n");
          huge = true;
        }
        sb.setLength(0);
        sb.append("{\"id\":")
            .append(lines)
            .append(",\"host\":\"web-")
            .append(lines % 40)
            .append("\",\"path\":\"/api/v1/orders/")
            .append(lines * 7919 % 100_000)
            .append("\",\"status\":")
            .append(lines % 17 == 0 ? 500 : 200)
            .append(",\"ms\":")
            .append(lines % 1000 / 10.0)
            .append("}\n");
        w.write(sb.toString());
        written += sb.length();
        lines++;
      }
    }
    return lines;
  }
}
