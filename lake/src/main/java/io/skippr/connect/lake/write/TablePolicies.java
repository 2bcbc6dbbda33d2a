package io.skippr.connect.lake.write;

import io.skippr.connect.lake.log.TablePolicyLog;
import io.skippr.connect.lake.maintenance.WritePolicyConfig;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Records the writer's policy for each table it commits to, before the table's first commit by this
 * writer: a reader that sees a unit's files finds the policy they were written under. Each table is
 * checked once per writer; units of several partitions may commit at once.
 */
final class TablePolicies {
  private final TablePolicyLog log;
  private final TablePolicyLog.Policy policy;
  private final Set<String> recorded = ConcurrentHashMap.newKeySet();

  TablePolicies(TablePolicyLog log, WritePolicyConfig.Settings settings) {
    this.log = log;
    this.policy = new TablePolicyLog.Policy(settings.policy().configName(), settings.keyFields());
  }

  /** Records the policy for the tables not yet recorded by this writer. */
  void recordFor(Collection<String> tables) {
    for (String table : tables) {
      if (!recorded.contains(table)) {
        log.record(table, policy);
        recorded.add(table);
      }
    }
  }
}
