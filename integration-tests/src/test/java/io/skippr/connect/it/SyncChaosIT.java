package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skippr sync} SIGKILLed at random points while it lands files (after a random number of
 * committed units, plus a random delay: between commits, in the middle of writing a unit's files,
 * between a commit and the state store's write), new files arriving meanwhile; then one last {@code
 * --once}. The lake holds every record exactly once and the store agrees with the lake.
 *
 * <p>{@code -Dsync.chaos.kills=N} kills more often (default 6).
 */
class SyncChaosIT {
  private static final int KILLS = Integer.getInteger("sync.chaos.kills", 6);
  private static final long PER_FILE = 4_000;

  @TempDir Path dir;

  @Test
  void everyRecordLandsOnceWhateverPointTheRunIsKilledAt() throws Exception {
    long seed = Long.getLong("sync.chaos.seed", System.nanoTime());
    Random random = new Random(seed);
    System.out.println("SyncChaosIT seed " + seed);
    Path inbox = dir.resolve("inbox");
    Path lake = dir.resolve("lake");
    SyncCli cli = new SyncCli(dir, Map.of());
    cli.pipeline("orders", SyncFiles.pipeline(inbox, lake.toString(), Map.of("flush.size", 250)));
    int files = 0;
    for (; files < 3; files++) {
      SyncFiles.write(inbox, files + ".ndjson", files * PER_FILE, (files + 1) * PER_FILE);
    }

    List<String> kills = new ArrayList<>();
    while (kills.size() < KILLS) {
      CliProcess run = cli.startSync("orders", "--once");
      int units = 1 + random.nextInt(10);
      Await.until(
          Duration.ofMinutes(2),
          () -> "unit " + units + " or the end of " + run.name() + ":\n" + run.output(),
          () -> !run.isAlive() || commits(run) >= units);
      Thread.sleep(random.nextInt(400));
      if (run.isAlive()) {
        run.kill();
        kills.add(run.name() + " after " + commits(run) + " unit(s)");
      } else {
        assertThat(run.exitCode()).as(run.output()).isZero();
      }
      SyncFiles.write(inbox, files + ".ndjson", files * PER_FILE, (files + 1) * PER_FILE);
      files++;
    }
    System.out.println("SyncChaosIT kills: " + kills);

    SyncCli.Result last = cli.once("orders");
    assertThat(last.exit()).as(last.output()).isZero();
    SyncFileLakeIT.assertExactlyOnce(lake, files * PER_FILE, last.output());
    assertThat(cli.state("show", "orders"))
        .as("the store agrees with the lake")
        .doesNotContain("the store is behind")
        .contains("leases: 0");
  }

  private static long commits(CliProcess run) {
    return run.stdout().lines().filter(line -> line.contains("\"unit_committed\"")).count();
  }
}
