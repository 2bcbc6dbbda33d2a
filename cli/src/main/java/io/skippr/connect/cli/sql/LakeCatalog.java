package io.skippr.connect.cli.sql;

import io.skippr.connect.cli.lake.LakeException;
import io.skippr.connect.cli.lake.LakeFileNames;
import io.skippr.connect.lake.log.LakeLayout;
import io.skippr.connect.lake.log.LakeManifest;
import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.log.LogFormatException;
import io.skippr.connect.lake.log.TablePolicyLog;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The tables of an open lake as its TP logs list them at the moment of asking: the files the logs
 * list as live ({@link LakeManifest}), each table's in the order of their rows, with its policy
 * ({@link TableScope}). Reads only.
 */
final class LakeCatalog implements AutoCloseable {
  private final LakeStorage storage;
  private final TableScope scope;
  private final TablePolicyLog policies;

  LakeCatalog(LakeStorage storage, TableScope scope) {
    this.storage = storage;
    this.scope = scope;
    this.policies = new TablePolicyLog(storage, new LakeLayout());
  }

  LakeStorage storage() {
    return storage;
  }

  /**
   * The tables in scope, by name.
   *
   * @throws LakeException when the scope declares a policy for a table the lake does not have
   */
  List<LakeTable> tables() throws IOException {
    // Policies first: the live files are listed last, as close to the query as can be.
    Map<String, TablePolicy> recorded = recorded();
    Map<String, List<LiveFile>> live = LakeManifest.liveFiles(storage);
    for (String declared : scope.declared().keySet()) {
      if (!live.containsKey(declared)) {
        throw new LakeException(
            "--merge-key names "
                + declared
                + ", which has no live file in "
                + storage.location()
                + " (tables: "
                + String.join(", ", new TreeSet<>(live.keySet()))
                + ")");
      }
    }
    List<LakeTable> tables = new ArrayList<>();
    for (Map.Entry<String, List<LiveFile>> table : live.entrySet()) {
      if (scope.includes(table.getValue())) {
        List<LiveFile> ordered = new ArrayList<>(table.getValue());
        ordered.sort(Comparator.comparing(LiveFile::key, LakeFileNames.ROW_ORDER));
        String name = table.getKey();
        tables.add(
            new LakeTable(
                name, scope.policyOf(name, Optional.ofNullable(recorded.get(name))), ordered));
      }
    }
    return tables;
  }

  /**
   * The policies the lake records, by table; a table written before policies were recorded has
   * none.
   *
   * @throws LakeException when a record is damaged or of a newer format
   */
  private Map<String, TablePolicy> recorded() {
    try {
      Map<String, TablePolicy> recorded = new HashMap<>();
      policies.currentAll().forEach((table, r) -> recorded.put(table, TablePolicy.of(r.policy())));
      return recorded;
    } catch (LogFormatException e) {
      throw new LakeException(e.getMessage());
    }
  }

  /**
   * Where other engines find a file: its absolute path in a local lake, its {@code s3://} URI in a
   * lake on S3.
   */
  String uri(String key) {
    if (storage instanceof LocalLakeStorage local) {
      return LocalFiles.resolve(local.root(), key).toString();
    }
    return storage.location() + key;
  }

  @Override
  public void close() throws IOException {
    storage.close();
  }
}
