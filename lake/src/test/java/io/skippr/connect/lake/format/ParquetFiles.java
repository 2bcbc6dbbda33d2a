package io.skippr.connect.lake.format;

import io.skippr.connect.lake.convert.FormatConfig;
import io.skippr.connect.testkit.DuckDbLake;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Writes rows with {@link ParquetFileWriter} into a fresh lake directory per test and reads them
 * with DuckDB. Register with {@code @RegisterExtension}.
 */
final class ParquetFiles implements BeforeEachCallback, AfterEachCallback {
  private Path root;
  private DuckDbLake lake;
  private int files;

  @Override
  public void beforeEach(ExtensionContext context) throws IOException {
    root = Files.createTempDirectory("parquet-files");
    lake = new DuckDbLake(root);
  }

  @Override
  public void afterEach(ExtensionContext context) throws IOException {
    lake.close();
    try (var paths = Files.walk(root)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  static FormatConfig config(FormatConfig.Codec codec, long rowGroupBytes) {
    return new FormatConfig(
        codec, rowGroupBytes, false, false, FormatConfig.NullValues.IGNORE, "${topic}");
  }

  static byte[] bytes(FormatConfig config, Schema schema, List<Struct> rows) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new ParquetFileWriter(config).write(schema, rows, out);
    return out.toByteArray();
  }

  /** Writes one file into {@code table} and returns its path. */
  Path write(String table, FormatConfig config, Schema schema, List<Struct> rows)
      throws IOException {
    ParquetFileWriter writer = new ParquetFileWriter(config);
    Path file = root.resolve(table).resolve("part-" + files++ + "." + writer.extension());
    Files.createDirectories(file.getParent());
    try (OutputStream out = Files.newOutputStream(file)) {
      writer.write(schema, rows, out);
    }
    return file;
  }

  List<Map<String, Object>> query(String sql) {
    return lake.query(sql);
  }

  /** Column name → DuckDB type name of a table. */
  Map<String, Object> types(String table) {
    Map<String, Object> types = new java.util.LinkedHashMap<>();
    for (Map<String, Object> row : lake.query("DESCRIBE SELECT * FROM ${table:" + table + "}")) {
      types.put((String) row.get("column_name"), row.get("column_type"));
    }
    return types;
  }
}
