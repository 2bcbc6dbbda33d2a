package io.skippr.connect.iceberg;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;

/**
 * The table's operations with a check before every commit attempt, Iceberg's own retries included:
 * the metadata a commit replaces ({@code base}) must not hold, in its snapshot ancestry, any change
 * of this commit already registered, nor a newer epoch of one of its TPs. The catalog commits only
 * on top of exactly that {@code base}, so a change passes at most once, whatever retried it: a lost
 * answer ({@code CommitStateUnknownException}), a crash, a rebalance, a zombie.
 */
final class RegistrationGuard extends ForwardingTableOperations {
  /** Changes of the commit found registered already: drop them and commit the rest. */
  static final class AlreadyRegistered extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final Set<String> ids;

    AlreadyRegistered(Set<String> ids) {
      super("already registered: " + ids);
      this.ids = Set.copyOf(ids);
    }
  }

  /** TPs of the commit that a newer writer registered for: drop their changes. */
  static final class NewerEpoch extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final Set<String> tps;

    NewerEpoch(Set<String> tps) {
      super("a newer writer registered for " + tps);
      this.tps = Set.copyOf(tps);
    }
  }

  /** Parsed marks of recent snapshots, which never change. */
  static final class MarksCache extends LinkedHashMap<Long, SnapshotMarks> {
    private static final long serialVersionUID = 1L;
    private static final SnapshotMarks NONE = new SnapshotMarks("", Set.of(), Map.of());

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, SnapshotMarks> eldest) {
      return size() > 20_000;
    }

    SnapshotMarks of(Snapshot snapshot) {
      SnapshotMarks marks = get(snapshot.snapshotId());
      if (marks == null) {
        marks = SnapshotMarks.of(snapshot);
        put(snapshot.snapshotId(), marks == null ? NONE : marks);
      }
      return marks == NONE ? null : marks;
    }
  }

  private final String lakeId;
  private final Set<String> ids;
  private final Map<String, Long> epochs;
  private final MarksCache cache;

  /**
   * @param ids the change ids of the commit
   * @param epochs the writer epoch of each TP of the commit, by {@code topic+partition}
   */
  RegistrationGuard(
      TableOperations delegate,
      String lakeId,
      Set<String> ids,
      Map<String, Long> epochs,
      MarksCache cache) {
    super(delegate);
    this.lakeId = lakeId;
    this.ids = ids;
    this.epochs = epochs;
    this.cache = cache;
  }

  @Override
  public void commit(TableMetadata base, TableMetadata metadata) {
    check(base);
    super.commit(base, metadata);
  }

  /** Walks the whole retained ancestry of {@code base}'s current snapshot (metadata in memory). */
  void check(TableMetadata base) {
    Set<String> registered = new TreeSet<>();
    Set<String> newer = new TreeSet<>();
    Snapshot snapshot = base == null ? null : base.currentSnapshot();
    while (snapshot != null) {
      SnapshotMarks marks = cache.of(snapshot);
      if (marks != null && marks.lakeId().equals(lakeId)) {
        for (String id : marks.ids()) {
          if (ids.contains(id)) {
            registered.add(id);
          }
        }
        marks
            .epochs()
            .forEach(
                (tp, epoch) -> {
                  Long ours = epochs.get(tp);
                  if (ours != null && epoch > ours) {
                    newer.add(tp);
                  }
                });
      }
      Long parent = snapshot.parentId();
      snapshot = parent == null ? null : base.snapshot(parent);
    }
    if (!newer.isEmpty()) {
      throw new NewerEpoch(newer);
    }
    if (!registered.isEmpty()) {
      throw new AlreadyRegistered(registered);
    }
  }
}
