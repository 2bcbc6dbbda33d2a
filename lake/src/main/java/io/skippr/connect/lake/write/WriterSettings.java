package io.skippr.connect.lake.write;

import io.skippr.connect.lake.buffer.RotationConfig;
import io.skippr.connect.lake.log.GenerationConfig;
import io.skippr.connect.lake.maintenance.WritePolicyConfig;

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
 * @param writePolicy how a unit's files relate to the older files of their partition paths, and the
 *     merge key; recorded in the lake for each table the writer commits to
 * @param retiredGraceMs how long files a unit replaces stay on storage after it committed
 */
public record WriterSettings(
    RotationConfig rotation,
    String configFingerprint,
    String owner,
    boolean toleratesErrors,
    int checkpointInterval,
    int writeConcurrency,
    boolean writeAsync,
    GenerationConfig.Behavior onDiscontinuity,
    WritePolicyConfig.Settings writePolicy,
    long retiredGraceMs) {
  public static final int DEFAULT_CHECKPOINT_INTERVAL = 100;

  /** Settings of the append policy. */
  public WriterSettings(
      RotationConfig rotation,
      String configFingerprint,
      String owner,
      boolean toleratesErrors,
      int checkpointInterval,
      int writeConcurrency,
      boolean writeAsync,
      GenerationConfig.Behavior onDiscontinuity) {
    this(
        rotation,
        configFingerprint,
        owner,
        toleratesErrors,
        checkpointInterval,
        writeConcurrency,
        writeAsync,
        onDiscontinuity,
        WritePolicyConfig.Settings.APPEND,
        0);
  }

  /** The connector's name: the owner up to its {@code @host/instance} part. */
  public String connector() {
    int at = owner.indexOf('@');
    return at < 0 ? owner : owner.substring(0, at);
  }
}
