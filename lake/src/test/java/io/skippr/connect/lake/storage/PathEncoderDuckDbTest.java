package io.skippr.connect.lake.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real reader decodes our partition directories back to the original values. */
class PathEncoderDuckDbTest {
  private static final List<String> VALUES =
      Arrays.asList(
          "plain",
          "../x",
          "a/b",
          "..",
          ".",
          "%2F",
          "k=v",
          "a b",
          "😀",
          "שלום",
          "é\u202E",
          "__HIVE_DEFAULT_PARTITION__",
          "__empty__",
          "back\\slash",
          "ctl\u0001",
          null,
          "");

  @Test
  void duckDbReadsEncodedHivePartitions(@TempDir Path root) throws Exception {
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement()) {
      for (int id = 0; id < VALUES.size(); id++) {
        Path dir = root.resolve(PathEncoder.segment("k", VALUES.get(id)));
        Files.createDirectories(dir);
        assertThat(dir.getParent()).isEqualTo(root);
        statement.execute(
            "COPY (SELECT "
                + id
                + " AS id) TO '"
                + dir.resolve("f.parquet")
                + "' (FORMAT parquet)");
      }
      List<String> read = new ArrayList<>();
      try (ResultSet rs =
          statement.executeQuery(
              "SELECT id, k FROM read_parquet('"
                  + root
                  + "/*/*.parquet', hive_partitioning=true, hive_types={'k': VARCHAR})"
                  + " ORDER BY id")) {
        while (rs.next()) {
          read.add(rs.getString(2));
        }
      }
      List<String> expected = new ArrayList<>(VALUES);
      // DuckDB has no spelling for an empty partition value; ours reads back as the sentinel
      expected.set(expected.size() - 1, "__empty__");
      assertThat(read).containsExactlyElementsOf(expected);
    }
  }
}
