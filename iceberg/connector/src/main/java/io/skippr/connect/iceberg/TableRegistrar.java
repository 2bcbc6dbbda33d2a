package io.skippr.connect.iceberg;

import io.skippr.connect.lake.log.LiveFile;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits one batch of changes of one lake table to its Iceberg table: appends as one append, a
 * compaction as one atomic replace (an overwrite when merge-by-key changed the rows: copy on write,
 * no delete files), an expiry as one delete, reconciled TPs as one append or overwrite. Before the
 * first attempt and every retry the state store's records are checked, and before every commit
 * attempt (Iceberg's own retries included) the {@link RegistrationGuard} checks the snapshot
 * ancestry, so each change is registered once.
 */
final class TableRegistrar {
  private static final Logger LOG = LoggerFactory.getLogger(TableRegistrar.class);
  static final int ATTEMPTS = 5;

  /** What a batch does, and the summary's kind. */
  enum Kind {
    APPEND,
    REPLACE,
    EXPIRE,
    RECONCILE
  }

  private final LakeTables tables;
  private final LakeDataFiles files;
  private final RegistrationRecords records;
  private final String lakeId;
  private final String owner;
  private final RegistrationGuard.MarksCache marks = new RegistrationGuard.MarksCache();

  TableRegistrar(
      LakeTables tables,
      LakeDataFiles files,
      RegistrationRecords records,
      String lakeId,
      String owner) {
    this.tables = tables;
    this.files = files;
    this.records = records;
    this.lakeId = lakeId;
    this.owner = owner;
  }

  /**
   * Registers the batch, retrying lost answers and conflicts.
   *
   * @throws RuntimeException the last failure when every attempt failed: the caller keeps the batch
   */
  void commit(String lakeTable, Kind kind, List<Slice> batch) {
    List<Slice> left = withoutGoneFiles(lakeTable, batch);
    Set<String> known = new LinkedHashSet<>();
    RuntimeException last = null;
    for (int attempt = 1; attempt <= ATTEMPTS && !left.isEmpty(); attempt++) {
      try {
        attemptCommit(lakeTable, kind, left, known);
        return;
      } catch (RegistrationGuard.AlreadyRegistered e) {
        LOG.info("{}: {} registered before; committing the rest", lakeTable, e.ids);
        left.removeIf(slice -> kind != Kind.RECONCILE && e.ids.contains(idOf(slice.change())));
        known.addAll(e.ids);
      } catch (RegistrationGuard.NewerEpoch e) {
        LOG.info(
            "{}: a newer writer registers {}; dropping this writer's changes", lakeTable, e.tps);
        left.removeIf(slice -> e.tps.contains(SnapshotMarks.tpKey(slice.change().tp())));
      } catch (RuntimeException e) {
        last = e;
        LOG.warn(
            "{}: Iceberg commit attempt {}/{} failed: {}",
            lakeTable,
            attempt,
            ATTEMPTS,
            e.toString());
        pause(attempt);
      }
    }
    if (last != null && !left.isEmpty()) {
      throw last;
    }
  }

  private void attemptCommit(String lakeTable, Kind kind, List<Slice> batch, Set<String> known) {
    List<LiveFile> added = batch.stream().flatMap(s -> s.added().stream()).toList();
    // A table is created from its first file; a change that adds nothing never creates one.
    boolean creates = (kind == Kind.APPEND || kind == Kind.RECONCILE) && !added.isEmpty();
    Table table = creates ? tables.load(lakeTable, added.get(0)) : tables.loadIfExists(lakeTable);
    if (table == null) {
      return; // nothing of this table was registered, so nothing is to replace or delete
    }
    table.refresh();
    String name = tables.identifier(lakeTable).toString();
    Map<String, Long> epochs = new TreeMap<>();
    batch.forEach(s -> epochs.put(SnapshotMarks.tpKey(s.change().tp()), s.change().epoch()));
    Plan plan =
        kind == Kind.RECONCILE ? reconcile(name, table, batch, known) : direct(name, kind, batch);
    if (plan.ids().isEmpty()) {
      return;
    }
    if (!plan.added().isEmpty()) {
      table = tables.evolve(table, plan.added());
    }
    Table guarded =
        new BaseTable(
            new RegistrationGuard(
                ((HasTableOperations) table).operations(), lakeId, plan.ids(), epochs, marks),
            table.name());
    Map<String, DataFile> present =
        plan.removed().isEmpty() ? Map.of() : currentFiles(table, plan.removed()::contains);
    SnapshotUpdate<?> update = Operations.build(guarded, kind, batch, plan, present, files);
    if (update == null) {
      records.record(name, plan.ids(), -1, 0);
      return;
    }
    update.set(SnapshotMarks.LAKE_ID, lakeId);
    update.set(SnapshotMarks.IDS, SnapshotMarks.join(plan.ids()));
    update.set(SnapshotMarks.EPOCHS, epochs(epochs));
    update.set(SnapshotMarks.RANGES, ranges(batch));
    update.set(SnapshotMarks.KIND, kind.name().toLowerCase(java.util.Locale.ROOT));
    update.set(SnapshotMarks.OWNER, owner);
    update.commit();
    long snapshot = guarded.currentSnapshot().snapshotId();
    long epoch = epochs.values().stream().mapToLong(Long::longValue).max().orElse(0);
    records.record(name, plan.ids(), snapshot, epoch);
    Set<String> retired = new LinkedHashSet<>();
    plan.removed().forEach(location -> retired.add(LakeDataFiles.idOf(location)));
    records.forget(name, retired);
    LOG.debug("{}: registered {} {} in snapshot {}", name, kind, plan.ids(), snapshot);
  }

  /**
   * The batch less the added files that are no longer on storage: retention or a merge's purge
   * removed them from the lake (and deleted them) before they were registered, and their later
   * change removes nothing then. Registering them would point readers at missing files.
   */
  private List<Slice> withoutGoneFiles(String lakeTable, List<Slice> batch) {
    List<Slice> kept = new ArrayList<>(batch.size());
    for (Slice slice : batch) {
      List<LiveFile> readable = new ArrayList<>(slice.added().size());
      for (LiveFile file : slice.added()) {
        if (files.gone(file)) {
          LOG.info("{}: {} left the lake before it was registered", lakeTable, file.key());
        } else {
          readable.add(file);
        }
      }
      boolean empty = readable.isEmpty() && slice.removed().isEmpty();
      if (!empty || slice.change().kind() == Kind.RECONCILE) {
        kept.add(new Slice(slice.change(), readable, slice.removed()));
      }
    }
    return kept;
  }

  /**
   * What to commit.
   *
   * @param ids the change ids the snapshot carries
   * @param added the files to add
   * @param removed the locations of the files to remove
   */
  record Plan(Set<String> ids, List<LiveFile> added, Set<String> removed) {}

  /** Appends, a compaction or an expiry: the batch as it is, less what the store knows. */
  private Plan direct(String table, Kind kind, List<Slice> batch) {
    Map<String, Slice> byId = new LinkedHashMap<>();
    batch.forEach(s -> byId.put(idOf(s.change()), s));
    Set<String> done = records.registered(table, byId.keySet());
    Set<String> ids = new LinkedHashSet<>();
    List<LiveFile> added = new ArrayList<>();
    Set<String> removed = new LinkedHashSet<>();
    byId.forEach(
        (id, slice) -> {
          if (!done.contains(id)) {
            ids.add(id);
            added.addAll(slice.added());
            slice.removed().forEach(f -> removed.add(files.location(f.key())));
          }
        });
    return new Plan(ids, added, removed);
  }

  /**
   * Reconciled TPs: the units the lake lists as live whose files the table does not hold and the
   * store does not know, and the table's files of these TPs the lake no longer lists.
   */
  private Plan reconcile(String table, Table iceberg, List<Slice> batch, Set<String> known) {
    Map<String, DataFile> current =
        currentFiles(
            iceberg,
            location -> batch.stream().anyMatch(s -> files.isOf(location, s.change().tp())));
    Map<String, List<LiveFile>> units = new LinkedHashMap<>();
    Set<String> live = new LinkedHashSet<>();
    for (Slice slice : batch) {
      for (LiveFile file : slice.added()) {
        live.add(files.location(file.key()));
        units.computeIfAbsent(LakeDataFiles.idOf(file.key()), id -> new ArrayList<>()).add(file);
      }
    }
    units
        .entrySet()
        .removeIf(
            unit ->
                unit.getValue().stream()
                    .anyMatch(f -> current.containsKey(files.location(f.key()))));
    units.keySet().removeAll(known);
    units.keySet().removeAll(records.registered(table, units.keySet()));
    Set<String> removed = new LinkedHashSet<>(current.keySet());
    removed.removeAll(live);
    Set<String> ids = new LinkedHashSet<>(units.keySet());
    if (ids.isEmpty() && !removed.isEmpty()) {
      ids.add("reconcile+" + batch.get(0).change().tp().topic() + "+" + owner);
    }
    List<LiveFile> added = units.values().stream().flatMap(Collection::stream).toList();
    if (!ids.isEmpty()) {
      LOG.info(
          "{}: registering {} unit(s) the last owner did not, removing {} retired file(s)",
          table,
          units.size(),
          removed.size());
    }
    return new Plan(ids, added, removed);
  }

  /** The table's current data files whose location passes {@code wanted}, by location. */
  static Map<String, DataFile> currentFiles(Table table, Predicate<String> wanted) {
    Map<String, DataFile> found = new HashMap<>();
    if (table.currentSnapshot() == null) {
      return found;
    }
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        String location = task.file().location();
        if (wanted.test(location)) {
          found.put(location, task.file());
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return found;
  }

  static String idOf(Change change) {
    return change.id();
  }

  private static String epochs(Map<String, Long> epochs) {
    List<String> pairs = new ArrayList<>();
    epochs.forEach((tp, epoch) -> pairs.add(tp + "=" + epoch));
    return SnapshotMarks.join(pairs);
  }

  /** Each TP's lowest start and highest end of the batch's units, {@code topic+p=[s,e]}. */
  private static String ranges(List<Slice> batch) {
    Map<String, long[]> ranges = new TreeMap<>();
    for (Slice slice : batch) {
      if (slice.change() instanceof Change.Append a) {
        long[] r =
            ranges.computeIfAbsent(
                SnapshotMarks.tpKey(a.tp()), k -> new long[] {a.start(), a.end()});
        r[0] = Math.min(r[0], a.start());
        r[1] = Math.max(r[1], a.end());
      }
    }
    List<String> out = new ArrayList<>();
    ranges.forEach((tp, r) -> out.add(tp + "=[" + r[0] + "," + r[1] + "]"));
    return String.join(";", out);
  }

  private static void pause(int attempt) {
    try {
      Thread.sleep(Math.min(5_000L, 100L << attempt));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
