/**
 * Records to lake rows: {@link io.skippr.connect.lake.convert.RowConverter} and its implementation
 * {@link io.skippr.connect.lake.convert.LakeRowConverter}, the Parquet schemas of tables ({@link
 * io.skippr.connect.lake.convert.ParquetSchemas}), and the format keys ({@link
 * io.skippr.connect.lake.convert.FormatConfig}). A record that cannot be a row is rejected with a
 * reason ({@link io.skippr.connect.lake.convert.RecordRejectedException}), never the batch.
 */
package io.skippr.connect.lake.convert;
