package io.skippr.connect.cli.sql;

import io.skippr.connect.cli.lake.LakeSettings;
import io.skippr.connect.lake.log.CompactionId;
import io.skippr.connect.lake.log.LiveFile;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which of the lake's tables a command reads and how each is kept. A table's policy is, first to
 * last: {@code --merge-key}; with a connector, the connector's config (its tables are those its
 * topics write), which its next merges apply; the policy the lake records for the table (the one
 * its newest writer committed under); append, for a table written before the lake recorded
 * policies.
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

  /** Every table of the lake, by the policy declared here, else the one its sink recorded. */
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

  /**
   * The table's policy.
   *
   * @param recorded the policy the lake records for it, if any
   */
  TablePolicy policyOf(String table, Optional<TablePolicy> recorded) {
    TablePolicy given = declared.get(table);
    if (given != null) {
      return given;
    }
    if (connector != null) {
      return connectorPolicy;
    }
    return recorded.orElse(TablePolicy.APPEND);
  }
}
