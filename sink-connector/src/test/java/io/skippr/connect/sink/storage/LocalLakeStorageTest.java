package io.skippr.connect.sink.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalLakeStorageTest {
  @TempDir Path root;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void createIfAbsentCreatesOnceAndKeepsTheFirstContent() throws IOException {
    LocalLakeStorage storage = new LocalLakeStorage(root);
    assertThat(storage.createIfAbsent("a/b/0.json", bytes("first"))).isTrue();
    assertThat(storage.createIfAbsent("a/b/0.json", bytes("second"))).isFalse();
    assertThat(new String(storage.read("a/b/0.json"), StandardCharsets.UTF_8)).isEqualTo("first");
    assertThat(filesIn(root)).containsExactly("a/b/0.json");
  }

  @Test
  void concurrentCreateIfAbsentHasExactlyOneWinner() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      for (int round = 0; round < 20; round++) {
        String key = "log/" + round + ".json";
        List<Callable<Boolean>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          String content = "writer-" + i;
          calls.add(() -> new LocalLakeStorage(root).createIfAbsent(key, bytes(content)));
        }
        long winners = 0;
        for (Future<Boolean> result : pool.invokeAll(calls)) {
          winners += result.get() ? 1 : 0;
        }
        assertThat(winners).as("winners of " + key).isEqualTo(1);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void streamedObjectIsInvisibleUntilCompleteAndThenReplacesAtomically() throws IOException {
    LocalLakeStorage storage = new LocalLakeStorage(root);
    storage.createIfAbsent("t/p=1/x.parquet", bytes("old"));
    PendingObject pending = storage.create("t/p=1/x.parquet");
    pending.stream().write(bytes("new content"));

    assertThat(new String(storage.read("t/p=1/x.parquet"), StandardCharsets.UTF_8))
        .isEqualTo("old");
    assertThat(storage.list("t/")).containsExactly("t/p=1/x.parquet");
    assertThat(storage.listIncomplete("t/")).containsExactly("t/p=1/x.parquet");
    List<String> onDisk = filesIn(root);
    assertThat(onDisk).hasSize(2);
    String temp = onDisk.stream().filter(f -> !f.equals("t/p=1/x.parquet")).findFirst().get();
    assertThat(temp).startsWith("t/p=1/.").doesNotEndWith(".parquet");

    pending.complete();
    assertThat(new String(storage.read("t/p=1/x.parquet"), StandardCharsets.UTF_8))
        .isEqualTo("new content");
    assertThat(filesIn(root)).containsExactly("t/p=1/x.parquet");
    assertThat(storage.listIncomplete("t/")).isEmpty();
  }

  @Test
  void abortDeletesTheTemporaryFile() throws IOException {
    LocalLakeStorage storage = new LocalLakeStorage(root);
    try (PendingObject pending = storage.create("t/x.parquet")) {
      pending.stream().write(bytes("partial"));
    }
    assertThat(filesIn(root)).isEmpty();
    assertThat(storage.exists("t/x.parquet")).isFalse();
  }

  @Test
  void discardIncompleteRemovesLeftOversOfThatKeyOnly() throws IOException {
    LocalLakeStorage storage = new LocalLakeStorage(root);
    storage.create("t/a.parquet").stream().write(bytes("crashed"));
    storage.create("t/b.parquet").stream().write(bytes("in flight"));
    storage.discardIncomplete("t/a.parquet");
    assertThat(storage.listIncomplete("")).containsExactly("t/b.parquet");
  }

  @Test
  void listFiltersByStringPrefixAndSorts() throws IOException {
    LocalLakeStorage storage = new LocalLakeStorage(root);
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
    LocalLakeStorage storage = new LocalLakeStorage(root);
    assertThatThrownBy(() -> storage.read("nope")).isInstanceOf(NoSuchFileException.class);
    storage.createIfAbsent("k", bytes("v"));
    assertThat(storage.exists("k")).isTrue();
    storage.delete("k");
    storage.delete("k");
    assertThat(storage.exists("k")).isFalse();
  }

  @Test
  void acceptsPlainPathsAndFileUris() throws IOException {
    LocalLakeStorage.at(root.toString()).createIfAbsent("one", bytes("1"));
    LocalLakeStorage.at(root.toUri().toString()).createIfAbsent("two", bytes("2"));
    assertThat(filesIn(root)).containsExactly("one", "two");
    assertThat(LocalLakeStorage.at(root.toString()).location()).startsWith("file:/");
  }

  @Test
  void rejectsKeysThatEscapeTheRoot() {
    LocalLakeStorage storage = new LocalLakeStorage(root.resolve("lake"));
    for (String bad : List.of("../x", "a/../../x", "/abs", "a//b", "a/./b", "")) {
      assertThatThrownBy(() -> storage.createIfAbsent(bad, bytes("x")))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(Files.exists(root.resolve("x"))).isFalse();
  }

  static List<String> filesIn(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> dir.relativize(p).toString())
          .sorted()
          .toList();
    }
  }
}
