package io.skippr.connect.lake.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The storage contract on a local directory, and what only a file system has. */
class LocalLakeStorageTest extends LakeStorageContractTest {
  /** {@code .{name}.{8 hex}.tmp}: a file being written. */
  private static final Pattern TEMP = Pattern.compile("\\.(.+)\\.[0-9a-f]{8}\\.tmp");

  @TempDir Path root;

  @Override
  LakeStorage storage() {
    return new LocalLakeStorage(root);
  }

  @Override
  List<String> backendObjects() throws IOException {
    return filesIn(root).stream().filter(f -> !isTemp(f)).toList();
  }

  @Override
  List<String> backendUnfinished() throws IOException {
    TreeSet<String> keys = new TreeSet<>();
    for (String file : filesIn(root)) {
      int slash = file.lastIndexOf('/');
      Matcher temp = TEMP.matcher(file.substring(slash + 1));
      if (temp.matches()) {
        keys.add(file.substring(0, slash + 1) + temp.group(1));
      }
    }
    return List.copyOf(keys);
  }

  private static boolean isTemp(String file) {
    return TEMP.matcher(file.substring(file.lastIndexOf('/') + 1)).matches();
  }

  @Test
  void anObjectBeingWrittenIsAHiddenTemporaryFileBesideItsTarget() throws IOException {
    LocalLakeStorage storage = new LocalLakeStorage(root);
    PendingObject pending = storage.create("t/p=1/x.parquet");
    pending.stream().write(bytes("new content"));

    assertThat(storage.listIncomplete("t/")).containsExactly("t/p=1/x.parquet");
    List<String> onDisk = filesIn(root);
    assertThat(onDisk).hasSize(1);
    assertThat(onDisk.get(0)).startsWith("t/p=1/.").doesNotEndWith(".parquet");
    assertThat(backendUnfinished()).containsExactly("t/p=1/x.parquet");

    pending.complete();
    assertThat(filesIn(root)).containsExactly("t/p=1/x.parquet");
  }

  @Test
  void acceptsPlainPathsAndFileUris() throws IOException {
    LocalLakeStorage.at(root.toString()).createIfAbsent("one", bytes("1"));
    LocalLakeStorage.at(root.toUri().toString()).createIfAbsent("two", bytes("2"));
    assertThat(filesIn(root)).containsExactly("one", "two");
    assertThat(LocalLakeStorage.at(root.toString()).location()).startsWith("file:/");
  }

  @Test
  void keysCannotEscapeTheRoot() {
    LocalLakeStorage storage = new LocalLakeStorage(root.resolve("lake"));
    for (String bad : List.of("../x", "a/../../x")) {
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
