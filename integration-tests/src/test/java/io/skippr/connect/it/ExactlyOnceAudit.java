package io.skippr.connect.it;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.DuckDbLake;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The exactness audit the chaos tests share: waits until the lake holds every produced record, then
 * checks it with DuckDB ({@link LakeAudit}) and the TP logs as plain JSON ({@link LakeLogAudit}).
 */
final class ExactlyOnceAudit {
  /** What the audit counted; it has already failed the test when anything is off. */
  record Result(long rows, long duplicates, long gaps, List<Long> claimsPerPartition) {
    long claims() {
      return claimsPerPartition.stream().mapToLong(Long::longValue).sum();
    }
  }

  private ExactlyOnceAudit() {}

  /**
   * Every (partition, offset) in {@code [0, perPartition)} exactly once with the produced value,
   * files that tile the offsets, no unresolved intent and no epoch going back in any TP log.
   */
  static Result check(Path lake, String topic, int partitions, long perPartition, Duration landing)
      throws IOException {
    long expected = partitions * perPartition;
    long rows;
    long distinct;
    try (DuckDbLake duck = new DuckDbLake(lake)) {
      Await.until(
          landing,
          () -> "lake to hold " + expected + " rows; has " + LakeAudit.rows(duck, topic),
          () -> LakeAudit.rows(duck, topic) >= expected);
      String table = "${table:" + topic + "}";
      rows = duck.count("select count(*) from " + table);
      distinct = duck.count("select count(distinct (__partition, __offset)) from " + table);
      System.out.printf(
          "audit: %s rows %,d, duplicates %d, gaps %d%n",
          topic, rows, rows - distinct, expected - distinct);
      LakeAudit.assertEveryOffsetOnce(duck, topic, partitions, perPartition);
      LakeAudit.assertValues(duck, topic, false);
      LakeAudit.assertUnitsTile(LakeAudit.units(duck, topic), topic, partitions, perPartition);
    }
    List<Long> claims = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      List<LakeLogAudit.Entry> entries = LakeLogAudit.entries(lake, topic, p);
      LakeLogAudit.assertNoUnresolvedIntent(entries);
      LakeLogAudit.assertEpochsNeverGoBack(entries);
      claims.add(LakeLogAudit.claims(entries));
    }
    return new Result(rows, rows - distinct, expected - distinct, claims);
  }
}
