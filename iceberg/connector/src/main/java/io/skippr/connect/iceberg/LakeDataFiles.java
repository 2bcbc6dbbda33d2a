package io.skippr.connect.iceberg;

import io.skippr.connect.lake.log.CompactionId;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.storage.StorageKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.kafka.common.TopicPartition;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Iceberg's view of the lake's files: where they are (an absolute location under the lake's root),
 * their schema and metrics from the Parquet footer, and their {@link DataFile} entry. The files are
 * registered as they are, never rewritten. Footers are read once and kept for the next attempts.
 */
final class LakeDataFiles {
  private static final int FOOTERS_KEPT = 4096;

  private final String root;
  private final FileIO io;
  private final LakeLayout layout = new LakeLayout();
  private final Map<String, ParquetMetadata> footers =
      new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ParquetMetadata> eldest) {
          return size() > FOOTERS_KEPT;
        }
      };

  /**
   * @param root the location of the lake's root, ending in {@code /} ({@code file:/abs/} or {@code
   *     s3://bucket/prefix/})
   * @param io reads the files
   */
  LakeDataFiles(String root, FileIO io) {
    this.root = root;
    this.io = io;
  }

  /** The location of a lake key. */
  String location(String key) {
    return root + key;
  }

  /** The lake table a file key belongs to. */
  String tableOf(String key) {
    return layout.tableOf(key);
  }

  /**
   * True when a location is a file of this lake that one of the TP's units or compactions wrote.
   */
  boolean isOf(String location, TopicPartition tp) {
    return location.startsWith(root)
        && CompactionId.namedFor(location.substring(root.length()), tp.topic(), tp.partition());
  }

  /** The change id a file's name derives from: its name up to the extension. */
  static String idOf(String key) {
    String name = StorageKeys.baseName(key);
    int plus = name.lastIndexOf('+');
    int dot = name.indexOf('.', Math.max(plus, 0));
    return dot < 0 ? name : name.substring(0, dot);
  }

  /** The schema the file's footer says, with Iceberg types (no field ids in the file). */
  Schema schema(LiveFile file) {
    return ParquetSchemaUtil.convert(footer(file).getFileMetaData().getSchema());
  }

  /** The file's entry for the table: path, size, metrics by the table's name mapping, partition. */
  DataFile dataFile(Table table, LiveFile file) {
    ParquetMetadata footer = footer(file);
    String mappingJson = table.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
    NameMapping mapping = mappingJson == null ? null : NameMappingParser.fromJson(mappingJson);
    Metrics metrics =
        ParquetUtil.footerMetrics(footer, Stream.empty(), MetricsConfig.forTable(table), mapping);
    String key = file.key();
    String partitionPath = partitionPath(key);
    List<Long> splits =
        footer.getBlocks().stream().map(BlockMetaData::getStartingPos).sorted().toList();
    return DataFiles.builder(table.spec())
        .withPath(location(key))
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(file.bytes())
        .withMetrics(metrics)
        .withSplitOffsets(splits)
        .withPartition(
            PartitionMapping.values(
                table.spec(),
                table.schema(),
                PartitionMapping.pathColumns(table.properties()),
                metrics,
                partitionPath))
        .build();
  }

  /** The partition path of a file key: between its table and its name. */
  String partitionPath(String key) {
    String rest = key.substring(layout.tablePrefix(tableOf(key)).length());
    int slash = rest.lastIndexOf('/');
    return slash < 0 ? "" : rest.substring(0, slash);
  }

  /**
   * True when the file is no longer on storage (its footer is read and kept otherwise). A file a
   * merge or a replacing unit retired meanwhile waits out its grace under {@code _skippr/retired/}:
   * it is not gone, and is registered, so that the change that retired it finds it in the table.
   */
  boolean gone(LiveFile file) {
    try {
      footer(file);
      return false;
    } catch (org.apache.iceberg.exceptions.NotFoundException e) {
      return true;
    } catch (UncheckedIOException e) {
      Throwable cause = e.getCause();
      return cause instanceof java.nio.file.NoSuchFileException
          || cause instanceof java.io.FileNotFoundException
          || cause instanceof org.apache.iceberg.exceptions.NotFoundException;
    }
  }

  private synchronized ParquetMetadata footer(LiveFile file) {
    ParquetMetadata footer = footers.get(file.key());
    if (footer == null) {
      footer = footerAt(file, location(file.key()), layout.retiredKey(file.key()));
      footers.put(file.key(), footer);
    }
    return footer;
  }

  /** The footer where the file is: in its table, else where it waits out its grace. */
  private ParquetMetadata footerAt(LiveFile file, String location, String retired) {
    try {
      return FooterReader.read(io.newInputFile(location, file.bytes()));
    } catch (org.apache.iceberg.exceptions.NotFoundException e) {
      if (retired == null) {
        throw e;
      }
      return footerAt(file, location(retired), null);
    } catch (IOException e) {
      if (retired != null
          && (e instanceof java.nio.file.NoSuchFileException
              || e instanceof java.io.FileNotFoundException)) {
        return footerAt(file, location(retired), null);
      }
      throw new UncheckedIOException("cannot read the footer of " + location, e);
    }
  }
}
