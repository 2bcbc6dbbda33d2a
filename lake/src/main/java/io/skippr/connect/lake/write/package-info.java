/**
 * The writer: records of many TPs to committed units, exactly once, with the commit protocol of
 * docs/lake-format.md. The API: {@link io.skippr.connect.lake.write.LakeSinkConfig} (every key of
 * the lake, and {@code validate}), {@link io.skippr.connect.lake.write.WriterParts} and {@link
 * io.skippr.connect.lake.write.LakeWriter} (open, put, preCommit, close, stop), which a {@link
 * io.skippr.connect.lake.session.LakeSession} wraps for the lake sink connector's task and for
 * {@code skippr sync}; {@link io.skippr.connect.lake.write.OffsetReset} applies offsets changed
 * through Connect's REST API. Every other class here is internal to the writer.
 */
package io.skippr.connect.lake.write;
