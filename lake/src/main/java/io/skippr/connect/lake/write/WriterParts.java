package io.skippr.connect.lake.write;

import io.skippr.connect.lake.buffer.SchemaMerge;
import io.skippr.connect.lake.buffer.WallClock;
import io.skippr.connect.lake.convert.LakeRowConverter;
import io.skippr.connect.lake.convert.RowConverter;
import io.skippr.connect.lake.format.LakeFileWriter;
import io.skippr.connect.lake.format.ParquetFileWriter;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.ProgressMirror;
import io.skippr.connect.lake.log.TableSchemaLog;
import io.skippr.connect.lake.maintenance.LateWrites;
import io.skippr.connect.lake.partition.Partitioner;
import io.skippr.connect.lake.partition.Partitioners;
import io.skippr.connect.lake.partition.PathTimes;
import io.skippr.connect.lake.publish.CommitListeners;
import io.skippr.connect.lake.publish.ListenerFactory;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.schema.SchemaEvolution;

/**
 * The collaborators of a {@link LakeWriter}; tests swap any of them.
 *
 * @param storage the lake, rooted at {@code topics.dir}
 * @param converter record → row
 * @param partitioner row → partition path
 * @param fileWriter rows → one file
 * @param schemaMerge whether rows of a new schema may join a file's rows
 * @param mirror where progress is mirrored after each commit
 * @param clock the wall clock
 * @param sourcePositions where records of a source run without Kafka came from (recorded in the
 *     commit of each unit)
 * @param lateWrites refuses rows whose partition path is already past retention
 * @param listeners opens the listener told of every change to the live files (Iceberg)
 */
public record WriterParts(
    LakeStorage storage,
    RowConverter converter,
    Partitioner partitioner,
    LakeFileWriter fileWriter,
    SchemaMerge schemaMerge,
    ProgressMirror mirror,
    WallClock clock,
    SourcePositions sourcePositions,
    LateWrites lateWrites,
    ListenerFactory listeners) {

  /**
   * The parts a lake sink's configuration asks for, over an open lake: rows by the configured
   * format (schemaless tables sharing their schema through the lake), the configured partitioner,
   * Parquet files, the system clock.
   */
  public static WriterParts of(
      LakeSinkConfig config,
      LakeStorage storage,
      ProgressMirror mirror,
      SourcePositions sourcePositions) {
    return new WriterParts(
        storage,
        new LakeRowConverter(config.format(), new TableSchemaLog(storage, new LakeLayout())),
        Partitioners.create(config.partitioning()),
        new ParquetFileWriter(config.format()),
        SchemaEvolution::evolve,
        mirror,
        WallClock.SYSTEM,
        sourcePositions,
        LateWrites.of(config.retention(), PathTimes.of(config.partitioning()).orElse(null)),
        CommitListeners.configured(config.originalsStrings()));
  }

  /** The parts of a writer of Kafka records. */
  public WriterParts(
      LakeStorage storage,
      RowConverter converter,
      Partitioner partitioner,
      LakeFileWriter fileWriter,
      SchemaMerge schemaMerge,
      ProgressMirror mirror,
      WallClock clock) {
    this(
        storage,
        converter,
        partitioner,
        fileWriter,
        schemaMerge,
        mirror,
        clock,
        SourcePositions.NONE,
        LateWrites.ACCEPT,
        ListenerFactory.NONE);
  }
}
