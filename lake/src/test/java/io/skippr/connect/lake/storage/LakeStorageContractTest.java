package io.skippr.connect.lake.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * What every {@link LakeStorage} promises, run against each implementation. Subclasses give a
 * fresh, empty lake per test and an independent look at what the backend physically holds, so these
 * tests never trust the storage under test to report on itself.
 */
abstract class LakeStorageContractTest {

  /** A storage of this test's lake; every call in one test returns a view of the same lake. */
  abstract LakeStorage storage() throws IOException;

  /** Keys of the complete objects, read from the backend directly, sorted. */
  abstract List<String> backendObjects() throws IOException;

  /** Keys of the unfinished writes the backend holds (temporary files, multipart uploads). */
  abstract List<String> backendUnfinished() throws IOException;

  /** Rounds of the concurrent create-if-absent race. */
  int raceRounds() {
    return 20;
  }

  /**
   * Why the backend cannot show that concurrent creates are atomic, or null when it can. (A test
   * server may check and write without a lock where the real service is atomic.)
   */
  String raceUntestableBecause() {
    return null;
  }

  /** Size of the object that must be streamed, not buffered whole. */
  int largeObjectBytes() {
    return (11 << 20) + 123;
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  @Test
  void createIfAbsentCreatesOnceAndKeepsTheFirstContent() throws IOException {
    LakeStorage storage = storage();
    assertThat(storage.createIfAbsent("a/b/0.json", bytes("first"))).isTrue();
    assertThat(storage.createIfAbsent("a/b/0.json", bytes("second"))).isFalse();
    assertThat(text(storage.read("a/b/0.json"))).isEqualTo("first");
    assertThat(backendObjects()).containsExactly("a/b/0.json");
  }

  @Test
  void concurrentCreateIfAbsentHasExactlyOneWinner() throws Exception {
    assumeTrue(raceUntestableBecause() == null, raceUntestableBecause());
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<LakeStorage> writers = new ArrayList<>();
    try {
      for (int i = 0; i < 8; i++) {
        writers.add(storage());
      }
      for (int round = 0; round < raceRounds(); round++) {
        String key = "log/" + round + ".json";
        List<Callable<Boolean>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          LakeStorage writer = writers.get(i);
          String content = "writer-" + i;
          calls.add(() -> writer.createIfAbsent(key, bytes(content)));
        }
        List<String> winners = new ArrayList<>();
        List<Future<Boolean>> results = pool.invokeAll(calls);
        for (int i = 0; i < results.size(); i++) {
          if (results.get(i).get()) {
            winners.add("writer-" + i);
          }
        }
        assertThat(winners).as("winners of " + key).hasSize(1);
        assertThat(text(storage().read(key))).isEqualTo(winners.get(0));
      }
    } finally {
      pool.shutdownNow();
      for (LakeStorage writer : writers) {
        writer.close();
      }
    }
  }

  @Test
  void streamedObjectIsInvisibleUntilCompleteAndThenReplacesAtomically() throws IOException {
    LakeStorage storage = storage();
    storage.createIfAbsent("t/p=1/x.parquet", bytes("old"));
    PendingObject pending = storage.create("t/p=1/x.parquet");
    assertThat(pending.key()).isEqualTo("t/p=1/x.parquet");
    pending.stream().write(bytes("new content"));
    pending.stream().flush();

    assertThat(text(storage.read("t/p=1/x.parquet"))).isEqualTo("old");
    assertThat(storage.list("t/")).containsExactly("t/p=1/x.parquet");
    assertThat(backendObjects()).containsExactly("t/p=1/x.parquet");

    pending.complete();
    assertThat(text(storage.read("t/p=1/x.parquet"))).isEqualTo("new content");
    assertThat(backendObjects()).containsExactly("t/p=1/x.parquet");
    assertThat(backendUnfinished()).isEmpty();
    assertThat(storage.listIncomplete("t/")).isEmpty();
    pending.close(); // after complete: nothing to abort
    assertThat(storage.exists("t/p=1/x.parquet")).isTrue();
  }

  @Test
  void aFinishedObjectTakesNoMoreWrites() throws IOException {
    LakeStorage storage = storage();
    PendingObject pending = storage.create("t/x.parquet");
    pending.stream().write(bytes("x"));
    pending.complete();
    assertThatThrownBy(pending::complete).isInstanceOf(IllegalStateException.class);
    assertThat(text(storage.read("t/x.parquet"))).isEqualTo("x");
  }

  @Test
  void closingWithoutCompletingAbortsAndLeavesNothing() throws IOException {
    LakeStorage storage = storage();
    try (PendingObject pending = storage.create("t/x.parquet")) {
      pending.stream().write(bytes("partial"));
    }
    PendingObject aborted = storage.create("t/y.parquet");
    aborted.stream().write(bytes("partial"));
    aborted.abort();
    aborted.abort();
    assertThat(backendObjects()).isEmpty();
    assertThat(backendUnfinished()).isEmpty();
    assertThat(storage.exists("t/x.parquet")).isFalse();
    assertThat(storage.exists("t/y.parquet")).isFalse();
  }

  @Test
  void discardIncompleteRemovesLeftOversOfThatKeyOnly() throws IOException {
    LakeStorage crashed = storage();
    leaveUnfinished(crashed, "t/a.parquet");
    leaveUnfinished(crashed, "t/b.parquet");
    leaveUnfinished(crashed, "u/c.parquet");
    LakeStorage storage = storage();
    assertThat(storage.listIncomplete("t/")).containsExactly("t/a.parquet", "t/b.parquet");
    assertThat(storage.listIncomplete("")).hasSize(3);

    storage.discardIncomplete("t/a.parquet");
    storage.discardIncomplete("t/missing.parquet");
    assertThat(storage.listIncomplete("")).containsExactly("t/b.parquet", "u/c.parquet");
    assertThat(backendUnfinished()).containsExactly("t/b.parquet", "u/c.parquet");
    assertThat(backendObjects()).isEmpty();
  }

  /** Starts a write that is never finished, as a crashed process leaves it. */
  void leaveUnfinished(LakeStorage storage, String key) throws IOException {
    storage.create(key).stream().write(bytes("crashed"));
  }

  @Test
  void listFiltersByStringPrefixAndSorts() throws IOException {
    LakeStorage storage = storage();
    for (String key : List.of("a/bc/2", "a/b/1", "a/b/0", "a/c/0", "z")) {
      storage.createIfAbsent(key, bytes(key));
    }
    assertThat(storage.list("a/b")).containsExactly("a/b/0", "a/b/1", "a/bc/2");
    assertThat(storage.list("a/b/")).containsExactly("a/b/0", "a/b/1");
    assertThat(storage.list("")).containsExactly("a/b/0", "a/b/1", "a/bc/2", "a/c/0", "z");
    assertThat(storage.list("missing/")).isEmpty();
  }

  @Test
  void readDeleteAndExists() throws IOException {
    LakeStorage storage = storage();
    assertThatThrownBy(() -> storage.read("nope")).isInstanceOf(NoSuchFileException.class);
    assertThat(storage.exists("k")).isFalse();
    storage.createIfAbsent("k", bytes("v"));
    assertThat(storage.exists("k")).isTrue();
    storage.delete("k");
    storage.delete("k");
    assertThat(storage.exists("k")).isFalse();
    assertThat(backendObjects()).isEmpty();
  }

  @Test
  void deleteAllDeletesEveryKeyAndIgnoresMissingOnes() throws IOException {
    LakeStorage storage = storage();
    for (String key : List.of("d/1", "d/2", "d/3", "e/1")) {
      storage.createIfAbsent(key, bytes(key));
    }
    storage.deleteAll(List.of("d/1", "d/3", "d/missing"));
    storage.deleteAll(List.of());
    assertThat(backendObjects()).containsExactly("d/2", "e/1");
  }

  @Test
  void moveReplacesTheTargetAndLeavesNothingAtTheSource() throws IOException {
    LakeStorage storage = storage();
    storage.createIfAbsent("t/a.parquet", bytes("moved"));
    storage.createIfAbsent("_s/old/a.parquet.retired", bytes("older"));
    storage.move("t/a.parquet", "_s/old/a.parquet.retired");
    assertThat(text(storage.read("_s/old/a.parquet.retired"))).isEqualTo("moved");
    assertThat(storage.exists("t/a.parquet")).isFalse();
    storage.move("_s/old/a.parquet.retired", "t/b/c/a.parquet");
    assertThat(backendObjects()).containsExactly("t/b/c/a.parquet");
    assertThat(text(storage.read("t/b/c/a.parquet"))).isEqualTo("moved");
    assertThatThrownBy(() -> storage.move("t/a.parquet", "t/x.parquet"))
        .as("a move done already fails like a missing object")
        .isInstanceOf(NoSuchFileException.class);
    assertThat(backendObjects()).containsExactly("t/b/c/a.parquet");
  }

  @Test
  void keysWithReservedCharactersRoundTrip() throws IOException {
    LakeStorage storage = storage();
    List<String> keys =
        List.of(
            "t/name=a%2Fb/topic+0+00000000000000000000+00000000000000000009.parquet",
            "t/city=S%C3%A3o Paulo/x y.json", "t/ü=é/€ & ? # ;.bin");
    for (String key : keys) {
      try (PendingObject pending = storage.create(key)) {
        pending.stream().write(bytes("content of " + key));
        pending.complete();
      }
    }
    assertThat(storage.list("t/")).containsExactlyInAnyOrderElementsOf(keys);
    assertThat(backendObjects()).containsExactlyInAnyOrderElementsOf(keys);
    for (String key : keys) {
      assertThat(text(storage.read(key))).isEqualTo("content of " + key);
      assertThat(storage.exists(key)).isTrue();
    }
  }

  @Test
  void aLargeObjectStreamedInUnevenWritesRoundTrips() throws Exception {
    LakeStorage storage = storage();
    byte[] content = new byte[largeObjectBytes()];
    new Random(42).nextBytes(content);
    try (PendingObject pending = storage.create("big/file.parquet")) {
      OutputStream out = pending.stream();
      int at = 0;
      Random sizes = new Random(7);
      while (at < content.length) {
        int n = Math.min(content.length - at, 1 + sizes.nextInt(300_000));
        if (n == 1) {
          out.write(content[at]);
        } else {
          out.write(content, at, n);
        }
        at += n;
      }
      pending.complete();
    }
    byte[] read = storage.read("big/file.parquet");
    assertThat(read.length).isEqualTo(content.length);
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    assertThat(sha.digest(read)).isEqualTo(sha.digest(content));
    assertThat(backendUnfinished()).isEmpty();
  }

  @Test
  void anEmptyObjectCanBeWritten() throws IOException {
    LakeStorage storage = storage();
    storage.create("t/empty").complete();
    assertThat(storage.read("t/empty")).isEmpty();
    assertThat(backendObjects()).containsExactly("t/empty");
  }

  @Test
  void rejectsKeysThatAreNotCleanRelativePaths() throws IOException {
    LakeStorage storage = storage();
    for (String bad : List.of("../x", "a/../../x", "/abs", "a//b", "a/./b", "", "trailing/")) {
      assertThatThrownBy(() -> storage.createIfAbsent(bad, bytes("x")))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> storage.create(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(backendObjects()).isEmpty();
  }
}
