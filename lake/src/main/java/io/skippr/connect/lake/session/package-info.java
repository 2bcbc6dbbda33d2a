/**
 * One lake session: everything a writer of the lake holds while it runs, behind one type. {@link
 * io.skippr.connect.lake.session.LakeSession} is open / put / preCommit / close and flush, plus
 * stop; {@link io.skippr.connect.lake.session.LakeSessionFactory} builds it from the sink's
 * configuration and owns what it opened: the storage, the progress mirror, the writer, the
 * maintenance and the maintenance lease. The lake sink task and {@code skippr sync} are thin
 * adapters over it.
 */
package io.skippr.connect.lake.session;
