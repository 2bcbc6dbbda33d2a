package io.skippr.connect.iceberg;

import io.skippr.connect.lake.log.LiveFile;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits changes table by table: each change split into the slices of the lake tables its files
 * belong to, each table's slices committed in order, consecutive appends (or reconciles) as one
 * commit. A table stops at its first failed commit, so its later changes keep their order.
 */
final class TableCommits {
  private static final Logger LOG = LoggerFactory.getLogger(TableCommits.class);

  private final TableRegistrar registrar;
  private final LakeDataFiles files;

  TableCommits(TableRegistrar registrar, LakeDataFiles files) {
    this.registrar = registrar;
    this.files = files;
  }

  /** Commits {@code work} in order; returns the changes with a slice that was not committed. */
  Set<Change> commit(List<Change> work) {
    Map<String, List<Slice>> byTable = new LinkedHashMap<>();
    for (Change change : work) {
      for (Map.Entry<String, Slice> slice : slices(change).entrySet()) {
        byTable.computeIfAbsent(slice.getKey(), t -> new ArrayList<>()).add(slice.getValue());
      }
    }
    Set<Change> failed = new HashSet<>();
    for (Map.Entry<String, List<Slice>> table : byTable.entrySet()) {
      List<Slice> left = commitInRuns(table.getKey(), table.getValue());
      left.forEach(slice -> failed.add(slice.change()));
    }
    return failed;
  }

  /** Commits runs of one kind in order; returns the slices of the first failed run and after. */
  private List<Slice> commitInRuns(String table, List<Slice> slices) {
    int i = 0;
    while (i < slices.size()) {
      TableRegistrar.Kind kind = slices.get(i).change().kind();
      int j = i + 1;
      boolean batches = kind == TableRegistrar.Kind.APPEND || kind == TableRegistrar.Kind.RECONCILE;
      while (batches && j < slices.size() && slices.get(j).change().kind() == kind) {
        j++;
      }
      try {
        registrar.commit(table, kind, slices.subList(i, j));
      } catch (RuntimeException e) {
        LOG.error(
            "Could not register {} change(s) of lake table {} in Iceberg; trying again later: {}",
            j - i,
            table,
            e.toString());
        return new ArrayList<>(slices.subList(i, slices.size()));
      }
      i = j;
    }
    return List.of();
  }

  /** The change's files by lake table. */
  private Map<String, Slice> slices(Change change) {
    Map<String, List<LiveFile>> added = byTable(change.added());
    Map<String, List<LiveFile>> removed = byTable(change.removed());
    Set<String> tables = new LinkedHashSet<>(added.keySet());
    tables.addAll(removed.keySet());
    Map<String, Slice> slices = new LinkedHashMap<>();
    for (String table : tables) {
      slices.put(
          table,
          new Slice(
              change,
              added.getOrDefault(table, List.of()),
              removed.getOrDefault(table, List.of())));
    }
    return slices;
  }

  private Map<String, List<LiveFile>> byTable(List<LiveFile> live) {
    Map<String, List<LiveFile>> byTable = new LinkedHashMap<>();
    live.forEach(
        f -> byTable.computeIfAbsent(files.tableOf(f.key()), t -> new ArrayList<>()).add(f));
    return byTable;
  }
}
