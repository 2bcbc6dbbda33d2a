package io.skippr.connect.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract storage on a local file system. */
class ContractStoreTest extends ContractStorageContractTest {
  @TempDir Path root;

  @Override
  protected ContractStorage storage() {
    return new ContractStore(root);
  }

  @Override
  protected byte[] readRaw(PipelineId id) throws Exception {
    return Files.readAllBytes(file(id));
  }

  @Override
  protected void writeRaw(PipelineId id, byte[] bytes) throws Exception {
    Files.createDirectories(file(id).getParent());
    Files.write(file(id), bytes);
  }

  @Override
  protected String expectedLocation(PipelineId id) {
    return file(id).toString();
  }

  private Path file(PipelineId id) {
    return root.resolve(id.tenant())
        .resolve(id.workspace())
        .resolve(id.pipeline())
        .resolve("metadata.json");
  }

  @Test
  void pathIsTheDocumentAndWritesLeaveNoTemporaryFiles() throws Exception {
    ContractStore store = new ContractStore(root);
    store.save(ID, List.of());
    store.put(ID, new Contract("x", org.apache.kafka.connect.data.SchemaBuilder.struct().build()));
    assertThat(store.path(ID)).isEqualTo(file(ID));
    try (Stream<Path> files = Files.list(file(ID).getParent())) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("metadata.json", ContractStore.LOCK_NAME);
    }
  }
}
