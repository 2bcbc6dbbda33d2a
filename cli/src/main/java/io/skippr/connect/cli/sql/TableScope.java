package io.skippr.connect.cli.sql;

import io.skippr.connect.cli.lake.LakeSettings;
import io.skippr.connect.lake.log.CompactionId;
import io.skippr.connect.lake.log.LiveFile;
import java.util.List;
import java.util.Map;

/**
 * Which of the lake's tables a command reads and how each is kept. The lake's logs record neither a
 * table's write policy nor its key: they come from the connector's config (its tables are those its
 * topics write) or from {@code --merge-key}; any other table is read as appended.
 *
 * @param connector the connector's lake settings, or null for every table of the lake
 * @param connectorPolicy the connector's write policy, for its tables
 * @param declared policies given on the command line, by table, over the connector's
 */
record TableScope(
    LakeSettings connector, TablePolicy connectorPolicy, Map<String, TablePolicy> declared) {

  TableScope {
    declared = Map.copyOf(declared);
  }

  /** Every table of the lake, appended unless declared otherwise. */
  static TableScope wholeLake(Map<String, TablePolicy> declared) {
    return new TableScope(null, TablePolicy.APPEND, declared);
  }

  /** True when the table is read: any table without a connector, else one its topics write. */
  boolean includes(List<LiveFile> files) {
    return connector == null
        || files.stream()
            .map(file -> CompactionId.writerOf(file.key()))
            .anyMatch(tp -> tp.isPresent() && connector.consumes(tp.get().topic()));
  }

  TablePolicy policyOf(String table) {
    return declared.getOrDefault(table, connectorPolicy);
  }
}
