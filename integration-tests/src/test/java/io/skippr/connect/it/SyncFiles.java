package io.skippr.connect.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** NDJSON order files for the file source, and the pipeline that reads them into a lake. */
final class SyncFiles {
  private SyncFiles() {}

  /**
   * Writes orders {@code [from, to)} to {@code dir/name}: nested customer and items, a timestamp
   * string, written to a temporary name first so the source never sees half a file.
   */
  static void write(Path dir, String name, long from, long to) {
    try {
      Files.createDirectories(dir);
      Path tmp = dir.resolve("." + name + ".tmp");
      try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        for (long id = from; id < to; id++) {
          out.write(
              "{\"id\":"
                  + id
                  + ",\"placed_at\":\"2026-11-"
                  + String.format("%02d", 1 + id % 28)
                  + "T10:15:30.123Z\",\"customer\":{\"name\":\"customer "
                  + id % 97
                  + "\",\"address\":{\"city\":\"city "
                  + id % 7
                  + "\",\"zip\":\""
                  + (10_000 + id % 900)
                  + "\"}},\"items\":[{\"sku\":\"sku-"
                  + id % 13
                  + "\",\"qty\":"
                  + (1 + id % 5)
                  + ",\"price\":"
                  + (id % 100) / 4.0
                  + "}],\"note\":"
                  + (id % 3 == 0 ? "null" : "\"n" + id + "\"")
                  + "}\n");
        }
      }
      Files.move(tmp, dir.resolve(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A file source over {@code inbox} into {@code lake} (a directory or an s3:// location). */
  static Map<String, Object> pipeline(Path inbox, String lake, Map<String, Object> lakeExtra) {
    Map<String, Object> source = new LinkedHashMap<>();
    source.put("class", "io.skippr.connect.source.file.FileSourceConnector");
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("file.dir", inbox.toString());
    config.put("file.pattern", "*.ndjson");
    config.put("file.format", "ndjson");
    config.put("file.min.age.ms", 0);
    config.put("poll.interval.ms", 200);
    config.put("topic", "orders");
    source.put("config", config);
    Map<String, Object> lakeConfig = new LinkedHashMap<>();
    lakeConfig.put("topics.dir", lake);
    lakeConfig.put("flush.size", 500);
    lakeConfig.putAll(lakeExtra);
    Map<String, Object> pipeline = new LinkedHashMap<>();
    pipeline.put("source", source);
    pipeline.put("lake", Map.of("config", lakeConfig));
    pipeline.put("sync", Map.of("idle.ms", 3000));
    return pipeline;
  }
}
