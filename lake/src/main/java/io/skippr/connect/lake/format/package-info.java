/**
 * The lake's file format: rows to one Parquet file ({@link
 * io.skippr.connect.lake.format.LakeFileWriter}, {@link
 * io.skippr.connect.lake.format.ParquetFileWriter}), without Hadoop at run time.
 */
package io.skippr.connect.lake.format;
