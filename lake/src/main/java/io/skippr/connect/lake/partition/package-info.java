/**
 * Rows to partition paths: {@link io.skippr.connect.lake.partition.Partitioner}, built from the
 * {@code partitioner.class} keys by {@link io.skippr.connect.lake.partition.Partitioners}.
 */
package io.skippr.connect.lake.partition;
