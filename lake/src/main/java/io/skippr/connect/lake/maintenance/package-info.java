/**
 * Lake maintenance through each TP's log: merging small files (by key for {@code merge_by_key}
 * tables), retention and deleting retired files after their grace ({@link
 * io.skippr.connect.lake.maintenance.LakeMaintenance}), and what a file's key says about its rows
 * ({@link io.skippr.connect.lake.maintenance.FileId}). The sink's tasks and {@code skippr compact}
 * run the same passes.
 */
package io.skippr.connect.lake.maintenance;
