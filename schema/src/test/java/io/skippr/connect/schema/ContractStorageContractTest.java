package io.skippr.connect.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ContractStorage} does, run against each implementation: subclasses give a fresh
 * storage and raw access to the backend, so what is stored is checked without the storage's help.
 */
public abstract class ContractStorageContractTest {
  private static final Schema ORDERS =
      SchemaBuilder.struct()
          .field("id", Schema.INT64_SCHEMA)
          .field("note", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  protected static final PipelineId ID = new PipelineId("acme", "prod", "orders-pipeline");

  private ContractStorage storage;

  /** A storage no other test of the run writes to. */
  protected abstract ContractStorage storage();

  /** The bytes the backend holds for the pipeline's document. */
  protected abstract byte[] readRaw(PipelineId id) throws Exception;

  /** Puts bytes where the pipeline's document lives, bypassing the storage. */
  protected abstract void writeRaw(PipelineId id, byte[] bytes) throws Exception;

  /** What {@link ContractStorage#location} must say for {@link #ID}. */
  protected abstract String expectedLocation(PipelineId id);

  @BeforeEach
  void open() {
    storage = storage();
  }

  @AfterEach
  void close() {
    storage.close();
  }

  private static Contract contract(String namespace, String field) {
    return new Contract(
        namespace, SchemaBuilder.struct().field(field, Schema.FLOAT64_SCHEMA).build());
  }

  @Test
  void nothingSavedLoadsEmpty() {
    assertThat(storage.load(ID)).isEmpty();
    assertThat(storage.load(ID, "orders")).isEmpty();
  }

  @Test
  void savesLoadsAndPutsUnderTenantWorkspacePipeline() throws Exception {
    Contract orders = new Contract("orders", ORDERS);
    Contract cpu = contract("cpu", "v");
    storage.save(ID, List.of(orders));
    storage.put(ID, cpu);

    assertThat(storage.location(ID))
        .isEqualTo(expectedLocation(ID))
        .endsWith("/acme/prod/orders-pipeline/metadata.json");
    assertThat(storage.load(ID)).containsExactly(orders, cpu);
    assertThat(storage.load(ID, "cpu")).contains(cpu);
    assertThat(storage.load(ID, "nope")).isEmpty();
    assertThat(ContractDocument.decode(readRaw(ID), "raw")).containsExactly(orders, cpu);

    Contract replaced = contract("cpu", "w");
    storage.put(ID, replaced);
    assertThat(storage.load(ID)).containsExactly(orders, replaced);
    assertThat(storage.load(new PipelineId("acme", "prod", "other"))).isEmpty();
    assertThat(storage.load(new PipelineId("acme", "test", "orders-pipeline"))).isEmpty();
  }

  @Test
  void saveReplacesEverything() {
    storage.save(ID, List.of(contract("a", "x"), contract("b", "x")));
    storage.save(ID, List.of(contract("c", "y")));
    assertThat(storage.load(ID)).containsExactly(contract("c", "y"));
  }

  @Test
  void twoContractsForOneNamespaceAreRefusedAndTheOldDocumentStays() {
    storage.save(ID, List.of(contract("a", "x")));
    assertThatThrownBy(() -> storage.save(ID, List.of(contract("b", "x"), contract("b", "y"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("two contracts for namespace b");
    assertThat(storage.load(ID)).containsExactly(contract("a", "x"));
  }

  @Test
  void aDocumentOfAnotherFormatIsAnErrorNamingItsLocation() throws Exception {
    writeRaw(ID, "{\"formatVersion\": 7, \"contracts\": []}".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> storage.load(ID))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            expectedLocation(ID) + ": format version 7 is not supported (this version reads 1)");
    writeRaw(ID, "{\"formatVersion\": 1, \"cont".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> storage.load(ID))
        .hasMessageStartingWith(expectedLocation(ID) + ": not valid JSON: ");
  }

  @Test
  void concurrentPutsOfDifferentNamespacesAllSurvive() throws Exception {
    int writers = 6;
    int each = 4;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    try (ContractStorage second = storage()) {
      for (int w = 0; w < writers; w++) {
        // Half the writers use a second storage (its own client or file handles).
        ContractStorage mine = w % 2 == 0 ? storage : second;
        String writer = "w" + w;
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < each; i++) {
                    mine.put(ID, contract(writer + ".n" + i, "v"));
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> future : done) {
        future.get(2, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    List<String> expected = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      for (int i = 0; i < each; i++) {
        expected.add("w" + w + ".n" + i);
      }
    }
    assertThat(storage.load(ID)).extracting(Contract::namespace).hasSameElementsAs(expected);
    assertThat(ContractDocument.decode(readRaw(ID), "raw")).hasSize(writers * each);
  }

  @Test
  void readersSeeTheOldOrTheNewDocumentNeverAPartOfOne() throws Exception {
    List<Contract> small = List.of(contract("a", "x"));
    List<Contract> large = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      large.add(contract("namespace-" + i, "field_" + i));
    }
    storage.save(ID, small);
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> writes =
          pool.submit(
              () -> {
                int n = 0;
                for (; n < 20; n++) {
                  storage.save(ID, n % 2 == 0 ? large : small);
                }
                writing.set(false);
                return n;
              });
      int reads = 0;
      while (writing.get() || reads == 0) {
        assertThat(storage.load(ID))
            .satisfiesAnyOf(
                c -> assertThat(c).isEqualTo(small), c -> assertThat(c).isEqualTo(large));
        reads++;
      }
      assertThat(writes.get(2, TimeUnit.MINUTES)).isEqualTo(20);
    } finally {
      pool.shutdownNow();
    }
  }
}
