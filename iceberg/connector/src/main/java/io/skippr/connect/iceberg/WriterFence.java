package io.skippr.connect.iceberg;

import io.skippr.connect.lake.publish.LogOwnership;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the changes of writers that still own their TP: the lake log must name the change's epoch
 * as the newest. A writer that lost its TPs (a zombie) registers nothing; its next owner registers
 * what it committed when it opens the TP.
 */
final class WriterFence {
  private static final Logger LOG = LoggerFactory.getLogger(WriterFence.class);

  private final LogOwnership ownership;

  WriterFence(LogOwnership ownership) {
    this.ownership = ownership;
  }

  /**
   * The changes to register now, and those to try later because their TP's log could not be read.
   */
  record Sorted(List<Change> owned, List<Change> later) {}

  /** Sorts {@code work}, in order: changes of fenced writers are dropped. */
  Sorted sort(List<Change> work) {
    // By TP and epoch: this task may have reopened a TP (a new epoch) with changes of its last
    // epoch still queued; those are dropped, the new epoch's kept.
    Map<Map.Entry<TopicPartition, Long>, Boolean> owns = new HashMap<>();
    Set<TopicPartition> unreadable = new HashSet<>();
    List<Change> owned = new ArrayList<>();
    List<Change> later = new ArrayList<>();
    for (Change change : work) {
      if (unreadable.contains(change.tp())) {
        later.add(change); // stays in order behind the change that could not be checked
        continue;
      }
      Map.Entry<TopicPartition, Long> writer = Map.entry(change.tp(), change.epoch());
      Boolean owner = owns.get(writer);
      if (owner == null) {
        try {
          owner = owns(change);
        } catch (IOException | RuntimeException e) {
          LOG.warn("Cannot read the log of {}; registering later: {}", change.tp(), e.toString());
          unreadable.add(change.tp());
          later.add(change);
          continue;
        }
        owns.put(writer, owner);
      }
      if (owner) {
        owned.add(change);
      }
    }
    return new Sorted(owned, later);
  }

  private boolean owns(Change change) throws IOException {
    boolean owner = ownership.owns(change.tp(), change.epoch(), change.logSeq());
    if (!owner) {
      LOG.info(
          "{} was claimed by a newer writer than epoch {}: it registers what this writer"
              + " committed; dropping this writer's queued changes",
          change.tp(),
          change.epoch());
    }
    return owner;
  }
}
