package io.skippr.connect.iceberg;

import io.skippr.connect.lake.log.LiveFile;
import java.util.List;
import org.apache.kafka.common.TopicPartition;

/** One change of a TP's live files waiting to be registered, in the TP's log order. */
sealed interface Change {
  TopicPartition tp();

  /** The epoch of the writer whose log entry the change follows. */
  long epoch();

  /** The sequence number of that entry. */
  long logSeq();

  /** The change's id: the key that makes registering it idempotent. */
  String id();

  /** What the change does to the table. */
  TableRegistrar.Kind kind();

  /** The files that become live (in every table). */
  List<LiveFile> added();

  /** The files that stop being live (in every table). */
  default List<LiveFile> removed() {
    return List.of();
  }

  /** A unit's commit: its files are appended. */
  record Append(
      TopicPartition tp,
      String id,
      long start,
      long end,
      long epoch,
      long logSeq,
      List<LiveFile> added)
      implements Change {
    @Override
    public TableRegistrar.Kind kind() {
      return TableRegistrar.Kind.APPEND;
    }
  }

  /** A compaction: one atomic replace of its inputs by its output. */
  record Replace(
      TopicPartition tp,
      String id,
      List<LiveFile> removed,
      List<LiveFile> added,
      long epoch,
      long logSeq,
      boolean merged)
      implements Change {
    @Override
    public TableRegistrar.Kind kind() {
      return TableRegistrar.Kind.REPLACE;
    }
  }

  /** Retention: the files are deleted from the table. */
  record Expire(TopicPartition tp, String id, List<LiveFile> removed, long epoch, long logSeq)
      implements Change {
    @Override
    public TableRegistrar.Kind kind() {
      return TableRegistrar.Kind.EXPIRE;
    }

    @Override
    public List<LiveFile> added() {
      return List.of();
    }
  }

  /**
   * A new owner opened the TP: the table is brought in line with the lake's live files of the TP
   * (units the last owner committed but did not register are appended, files the lake retired are
   * removed).
   */
  record Reconcile(TopicPartition tp, long epoch, long logSeq, List<LiveFile> added)
      implements Change {
    @Override
    public String id() {
      return "reconcile";
    }

    @Override
    public TableRegistrar.Kind kind() {
      return TableRegistrar.Kind.RECONCILE;
    }
  }
}
