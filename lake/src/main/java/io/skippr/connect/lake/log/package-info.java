/**
 * The per-partition log, the authority on which files are live (docs/lake-format.md).
 *
 * <p>The API: {@link io.skippr.connect.lake.log.LakeLayout} (where things live under {@code
 * topics.dir}) and {@link io.skippr.connect.lake.log.CompactionId} (the name of a unit's or a
 * merge's rows, built and read only there); {@link io.skippr.connect.lake.log.TpLog} with its typed
 * entries ({@link io.skippr.connect.lake.log.LogEntry}) and what they fold to ({@link
 * io.skippr.connect.lake.log.LogState}, whose {@code accountedFiles()} is the one definition of the
 * files a log accounts for, {@link io.skippr.connect.lake.log.AccountedFiles}); {@link
 * io.skippr.connect.lake.log.TpRecovery}, the one way a writer or a maintenance run claims a TP
 * (epoch, abandoned merge, orphans swept); {@link io.skippr.connect.lake.log.LakeIdentity}; and for
 * readers, {@link io.skippr.connect.lake.log.LakeManifest} and {@link
 * io.skippr.connect.lake.log.LogHistory}.
 */
package io.skippr.connect.lake.log;
