package io.skippr.connect.iceberg;

import io.skippr.connect.lake.log.LiveFile;
import java.util.List;

/**
 * The part of a change that concerns one lake table.
 *
 * @param change the change
 * @param added the files of the change in this table that become live (appended, a compaction's
 *     output, a reconciled TP's live files)
 * @param removed the files of the change in this table that stop being live
 */
record Slice(Change change, List<LiveFile> added, List<LiveFile> removed) {}
