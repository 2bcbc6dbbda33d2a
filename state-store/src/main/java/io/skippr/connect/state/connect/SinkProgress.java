package io.skippr.connect.state.connect;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * How far the sink has committed one topic-partition: the unit {@code compactionId} covering
 * offsets up to {@code endOffset} was published at TP-log sequence {@code logSeq} by a writer of
 * {@code epoch}.
 */
public record SinkProgress(
    @JsonProperty("end_offset") long endOffset,
    @JsonProperty("compaction_id") String compactionId,
    @JsonProperty("epoch") long epoch,
    @JsonProperty("log_seq") long logSeq) {

  public SinkProgress {
    Objects.requireNonNull(compactionId, "compactionId");
  }

  /** Whether this progress comes strictly after {@code other} in the TP log (epoch, then seq). */
  public boolean isAfter(SinkProgress other) {
    return epoch != other.epoch ? epoch > other.epoch : logSeq > other.logSeq;
  }
}
