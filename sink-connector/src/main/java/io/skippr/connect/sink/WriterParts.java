package io.skippr.connect.sink;

import io.skippr.connect.sink.buffer.SchemaMerge;
import io.skippr.connect.sink.buffer.WallClock;
import io.skippr.connect.sink.convert.RowConverter;
import io.skippr.connect.sink.format.LakeFileWriter;
import io.skippr.connect.sink.log.ProgressMirror;
import io.skippr.connect.sink.partition.Partitioner;
import io.skippr.connect.sink.storage.LakeStorage;

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
 */
public record WriterParts(
    LakeStorage storage,
    RowConverter converter,
    Partitioner partitioner,
    LakeFileWriter fileWriter,
    SchemaMerge schemaMerge,
    ProgressMirror mirror,
    WallClock clock) {}
