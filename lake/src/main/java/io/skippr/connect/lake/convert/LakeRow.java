package io.skippr.connect.lake.convert;

import org.apache.kafka.connect.data.Struct;

/**
 * One record made ready for the lake: the table it belongs to and the row to write.
 *
 * @param table the output table (directory under {@code topics.dir}), already path-safe
 * @param row the row with its final schema, including metadata columns when configured
 * @param estimatedBytes an estimate of the heap the row holds, for the task's memory budget
 */
public record LakeRow(String table, Struct row, long estimatedBytes) {}
