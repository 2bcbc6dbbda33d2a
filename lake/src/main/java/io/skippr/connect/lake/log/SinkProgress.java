package io.skippr.connect.lake.log;

/**
 * Progress of one TP after a commit: offsets up to {@code endOffset} of the TP's current generation
 * are in the lake named by {@code lakeId}.
 *
 * @param compactionId the committed unit
 * @param epoch the epoch of the writer that committed it
 * @param logSeq the sequence number of the commit entry
 * @param generation the TP's generation the unit belongs to
 * @param lakeId the identity of the lake the unit is in ({@link LakeIdentity}); null in rows
 *     mirrored before lakes had identities
 * @param lakeLocation where that lake lives, for operators
 */
public record SinkProgress(
    String topic,
    int partition,
    long endOffset,
    String compactionId,
    long epoch,
    long logSeq,
    long generation,
    String lakeId,
    String lakeLocation) {

  /** Whether this progress was written for the given lake. */
  public boolean belongsTo(LakeIdentity lake) {
    return lake.id().equals(lakeId);
  }

  /** Whether this progress comes strictly after {@code other} in one lake's TP log. */
  public boolean isAfter(SinkProgress other) {
    return epoch != other.epoch ? epoch > other.epoch : logSeq > other.logSeq;
  }
}
