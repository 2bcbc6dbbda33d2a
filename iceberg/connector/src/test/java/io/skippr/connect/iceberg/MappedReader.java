package io.skippr.connect.iceberg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.util.PartitionUtil;

/**
 * Reads a table's rows through Iceberg's Java API as engines do: each current data file with the
 * table's schema, its identity partition values and its name mapping. Iceberg 1.12.0's
 * IcebergGenerics reader does not apply {@code schema.name-mapping.default}: on files without field
 * ids it falls back to top-level positions and fails on nested fields.
 */
final class MappedReader {
  private MappedReader() {}

  /** Calls {@code each} with every row of the table's current snapshot. */
  static void read(Table table, Consumer<Record> each) throws IOException {
    String json = table.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
    NameMapping mapping = json == null ? null : NameMappingParser.fromJson(json);
    if (table.currentSnapshot() == null) {
      return;
    }
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        try (CloseableIterable<Record> rows =
            FormatModelRegistry.readBuilder(
                    task.file().format(), Record.class, table.io().newInputFile(task.file()))
                .project(table.schema())
                .idToConstant(
                    PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant))
                .split(task.start(), task.length())
                .withNameMapping(mapping)
                .build()) {
          rows.forEach(each);
        }
      }
    }
  }

  /** Every row's {@code partition/offset}, with repeats. */
  static List<String> positions(Table table) {
    List<String> positions = new ArrayList<>();
    try {
      read(
          table,
          row -> positions.add(row.getField("__partition") + "/" + row.getField("__offset")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return positions;
  }
}
