package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.connect.testkit.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Freezes the worker whose task owns a lake sink's TPs (SIGSTOP) until the other worker has claimed
 * them all, thaws it (SIGCONT), and finds the evidence that its task then tried to publish and was
 * fenced off: the sink's warning with the epoch the frozen writer held.
 *
 * <p>A thawed task tries to publish when it was frozen inside Connect's put (its buffered unit is
 * then older than the rotation interval). When it was frozen inside the consumer's poll instead, it
 * learns of the lost partitions first and publishes nothing: the freeze is repeated then.
 */
final class ZombieFreeze {
  /** The sink's warning when a newer epoch took its TP (see the sink's TpLog). */
  private static final Pattern FENCED =
      Pattern.compile(
          "writer of epoch (\\d+) is fenced off (\\S+)-(\\d+): epoch (\\d+) claimed it");

  private static final Duration READY = Duration.ofMinutes(2);

  /** How long a thawed task may take to reach its next append. */
  private static final Duration THAWED_APPEND = Duration.ofSeconds(30);

  /** A fencing a thawed worker logged: the epoch it held on a TP and the newer epoch. */
  record Fencing(int worker, int partition, long epoch, long newerEpoch, String line) {}

  private final Path lake;
  private final String topic;
  private final int partitions;
  private final CliProcess[] workers;

  ZombieFreeze(Path lake, String topic, int partitions, CliProcess... workers) {
    this.lake = lake;
    this.topic = topic;
    this.partitions = partitions;
    this.workers = workers;
  }

  /** Freeze cycles until a thawed task is fenced off, at most {@code maxFreezes}. */
  Fencing untilFenced(int maxFreezes) throws Exception {
    for (int freeze = 1; freeze <= maxFreezes; freeze++) {
      String[] owner = new String[1];
      Await.until(
          READY,
          "one task to own every TP and commit a unit on each",
          () -> (owner[0] = steadyOwner()) != null);
      int zombie = workerOf(owner[0]);
      long[] epochs = freezeBetweenUnits(workers[zombie]);
      Await.until(
          READY,
          () -> "the other worker to claim every TP after epochs " + Arrays.toString(epochs),
          () -> claimedAfter(epochs));
      workers[zombie].signal("CONT");
      Optional<Fencing> fencing = awaitFencing(zombie, epochs);
      System.out.printf(
          "chaos: freeze %d of worker %d (task %s, epochs %s): %s%n",
          freeze,
          zombie,
          owner[0],
          Arrays.toString(epochs),
          fencing.map(Fencing::line).orElse("no fencing logged; freezing again"));
      if (fencing.isPresent()) {
        return fencing.get();
      }
    }
    throw new AssertionError("no thawed task was fenced off in " + maxFreezes + " freezes");
  }

  /**
   * The TP log shows the newer epoch claimed by another writer and nothing of the fenced epoch
   * after that claim.
   */
  void assertFencedByNewerClaim(Fencing fencing) throws IOException {
    List<LakeLogAudit.Entry> entries = LakeLogAudit.entries(lake, topic, fencing.partition());
    int claim = -1;
    for (int i = 0; i < entries.size(); i++) {
      LakeLogAudit.Entry entry = entries.get(i);
      if (entry.kind().equals("epoch") && entry.epoch() == fencing.newerEpoch()) {
        claim = i;
      }
    }
    assertThat(claim).as("claim of epoch " + fencing.newerEpoch() + " in " + entries).isPositive();
    assertThat(entries.subList(0, claim))
        .as("entries of the fenced epoch before the newer claim")
        .anyMatch(e -> e.epoch() == fencing.epoch());
    assertThat(entries.subList(claim, entries.size()))
        .as("entries of the fenced epoch after the newer claim")
        .noneMatch(e -> e.epoch() == fencing.epoch());
  }

  /**
   * Freezes the worker at a moment when no TP has a unit between its intent and its commit: the new
   * owner would sweep a half-written unit's files and the thawed writer would then fail on storage
   * before it could reach the append that fences it.
   *
   * @return each TP's newest epoch while frozen: the epochs the frozen writer holds
   */
  private long[] freezeBetweenUnits(CliProcess worker) {
    long[][] frozen = new long[1][];
    int[] tries = {0};
    Await.until(
        READY,
        () -> "a moment without a half-written unit; tries " + tries[0],
        () -> {
          tries[0]++;
          signal(worker, "STOP");
          frozen[0] = null;
          try {
            frozen[0] = epochsBetweenUnits();
          } finally {
            if (frozen[0] == null) {
              signal(worker, "CONT");
            }
          }
          return frozen[0] != null;
        });
    return frozen[0];
  }

  /** The fencing of one of {@code epochs} that the thawed worker logs, if it logs one in time. */
  private Optional<Fencing> awaitFencing(int worker, long[] epochs) throws InterruptedException {
    long deadline = System.nanoTime() + THAWED_APPEND.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<Fencing> fencing = fencing(worker, epochs);
      if (fencing.isPresent()) {
        return fencing;
      }
      Thread.sleep(100);
    }
    return fencing(worker, epochs);
  }

  private Optional<Fencing> fencing(int worker, long[] epochs) {
    for (String line : workers[worker].errorLines()) {
      Matcher m = FENCED.matcher(line);
      if (m.find() && m.group(2).equals(topic)) {
        int partition = Integer.parseInt(m.group(3));
        long epoch = Long.parseLong(m.group(1));
        long newer = Long.parseLong(m.group(4));
        if (partition < epochs.length && epochs[partition] == epoch && newer > epoch) {
          return Optional.of(new Fencing(worker, partition, epoch, newer, line));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The owner that claimed every TP last and has committed a unit on each since, or null: a task in
   * its steady state, busy inside put most of the time.
   */
  private String steadyOwner() {
    String owner = null;
    for (int p = 0; p < partitions; p++) {
      List<LakeLogAudit.Entry> entries = entries(p);
      String claimedBy = null;
      boolean committed = false;
      for (LakeLogAudit.Entry entry : entries) {
        if (entry.kind().equals("epoch")) {
          claimedBy = entry.owner();
          committed = false;
        } else if (entry.kind().equals("commit")) {
          committed = true;
        }
      }
      if (claimedBy == null || !committed || (owner != null && !owner.equals(claimedBy))) {
        return null;
      }
      owner = claimedBy;
    }
    return owner;
  }

  /** The worker that started the task of this owner (the sink logs its owner name at start). */
  private int workerOf(String owner) {
    for (int w = 0; w < workers.length; w++) {
      if (workers[w].isAlive()
          && workers[w].errorLines().stream().anyMatch(l -> l.contains(owner))) {
        return w;
      }
    }
    throw new AssertionError("no worker logged the start of " + owner);
  }

  private boolean claimedAfter(long[] epochs) {
    for (int p = 0; p < partitions; p++) {
      long frozen = epochs[p];
      if (entries(p).stream().noneMatch(e -> e.kind().equals("epoch") && e.epoch() > frozen)) {
        return false;
      }
    }
    return true;
  }

  /** Each TP's newest epoch, or null when some TP's newest entry is an unresolved intent. */
  private long[] epochsBetweenUnits() {
    long[] epochs = new long[partitions];
    for (int p = 0; p < partitions; p++) {
      List<LakeLogAudit.Entry> entries = entries(p);
      if (entries.isEmpty() || entries.get(entries.size() - 1).kind().equals("intent")) {
        return null;
      }
      epochs[p] = entries.stream().mapToLong(LakeLogAudit.Entry::epoch).max().orElseThrow();
    }
    return epochs;
  }

  private List<LakeLogAudit.Entry> entries(int partition) {
    try {
      return LakeLogAudit.entries(lake, topic, partition);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void signal(CliProcess worker, String signal) {
    try {
      worker.signal(signal);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
