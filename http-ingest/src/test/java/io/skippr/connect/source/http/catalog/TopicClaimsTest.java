package io.skippr.connect.source.http.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class TopicClaimsTest {

  /** Eight tasks racing for 400 names under a limit of 100: exactly 100 claims succeed. */
  @Test
  void theTopicLimitHoldsWhenTasksRace() throws Exception {
    MemoryRows rows = new MemoryRows();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<Integer>> claimed = new ArrayList<>();
    for (int task = 0; task < 8; task++) {
      TopicClaims claims = new TopicClaims(rows, 100, Optional.empty());
      int first = task * 50;
      Callable<Integer> claimAll =
          () -> {
            int ok = 0;
            for (int n = first; n < first + 50; n++) {
              ok += claims.admit(NameKind.MEASUREMENT, "m" + n, "t.m" + n) == null ? 1 : 0;
            }
            return ok;
          };
      claimed.add(pool.submit(claimAll));
    }
    int total = 0;
    for (Future<Integer> f : claimed) {
      total += f.get();
    }
    pool.shutdown();
    assertThat(total).isEqualTo(100);
    TopicClaims later = new TopicClaims(rows, 100, Optional.empty());
    int known = 0;
    for (int n = 0; n < 400; n++) {
      known += later.admit(NameKind.MEASUREMENT, "m" + n, "t.m" + n) == null ? 1 : 0;
    }
    assertThat(known).as("claims found again by a new task").isEqualTo(100);
  }

  @Test
  void twoTasksClaimingOneTopicAgreeOnItsOwner() {
    MemoryRows rows = new MemoryRows();
    TopicClaims a = new TopicClaims(rows, 10, Optional.empty());
    TopicClaims b = new TopicClaims(rows, 10, Optional.empty());
    assertThat(a.admit(NameKind.STREAM, "x", "p.x")).isNull();
    assertThat(b.admit(NameKind.STREAM, "x", "p.x")).isNull();
    assertThat(b.admit(NameKind.MEASUREMENT, "x", "p.x")).contains("JSON stream 'x' already");
  }
}
