/**
 * Where the lake is kept: {@link io.skippr.connect.lake.storage.LakeStorage}, rooted at {@code
 * topics.dir}, on local disk ({@link io.skippr.connect.lake.storage.LocalLakeStorage}) or S3
 * ({@link io.skippr.connect.lake.storage.S3LakeStorage}), opened from the {@code topics.dir} and S3
 * keys ({@link io.skippr.connect.lake.storage.StorageConfig}). Readers see a whole object or none,
 * and log entries are created only if absent, atomically ({@code createIfAbsent}).
 */
package io.skippr.connect.lake.storage;
