/**
 * The lake's use of the state store: progress mirrored after each commit ({@link
 * io.skippr.connect.lake.state.StoreProgressMirror}) and the maintenance lease ({@link
 * io.skippr.connect.lake.state.MaintenanceLease}).
 */
package io.skippr.connect.lake.state;
