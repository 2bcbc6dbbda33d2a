package io.skippr.connect.sink;

import io.skippr.connect.sink.buffer.RotationConfig;
import io.skippr.connect.sink.log.GenerationConfig;

/**
 * The settings a {@link LakeWriter} works with.
 *
 * @param rotation rotation triggers and the task's buffer budget
 * @param configFingerprint fingerprint of the settings that shape file names and contents; a
 *     pending unit planned under another fingerprint is abandoned instead of replayed
 * @param owner who claims TPs, recorded in epoch entries (connector name, host, instance)
 * @param toleratesErrors true when {@code errors.tolerance=all}: rejected records go to the
 *     errant-record reporter instead of failing the task
 * @param checkpointInterval log entries between checkpoints
 * @param writeConcurrency how many files of a unit are written at once
 * @param writeAsync whether a cut unit is written on a thread of its own while the task buffers on
 * @param onDiscontinuity what to do with offsets the lake cannot account for
 */
public record WriterSettings(
    RotationConfig rotation,
    String configFingerprint,
    String owner,
    boolean toleratesErrors,
    int checkpointInterval,
    int writeConcurrency,
    boolean writeAsync,
    GenerationConfig.Behavior onDiscontinuity) {
  public static final int DEFAULT_CHECKPOINT_INTERVAL = 100;
}
