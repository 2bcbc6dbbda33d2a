package io.skippr.connect.source.file.track;

import java.util.EnumSet;
import java.util.Set;

/** Where a tracked file is in its life; {@link #canMoveTo} holds the allowed transitions. */
public enum Phase {
  /** Identified; its committed offset is being looked up. */
  RESOLVING,
  /** May have bytes beyond its position: waiting its turn, or being read. */
  READING,
  /** Followed (file.tail=true) and read to its current end; kept open for new lines. */
  FOLLOWING,
  /** Read to its end (file.tail=false); waiting until Kafka committed its last record's offset. */
  DRAINED,
  /** Completed and kept: read again only if it grows. */
  DONE,
  /** Could not be read; tried again at the next listing. */
  FAILED;

  private Set<Phase> next() {
    return switch (this) {
      case RESOLVING -> EnumSet.of(READING, FAILED);
      case READING -> EnumSet.of(READING, FOLLOWING, DRAINED, DONE, FAILED);
      case FOLLOWING -> EnumSet.of(READING, FAILED);
      case DRAINED -> EnumSet.of(DONE, READING, FAILED);
      case DONE, FAILED -> EnumSet.of(READING);
    };
  }

  public boolean canMoveTo(Phase target) {
    return next().contains(target);
  }
}
