package io.skippr.connect.lake.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.lake.storage.InMemoryLakeStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class TablePolicyLogTest {
  private static final TablePolicyLog.Policy APPEND =
      new TablePolicyLog.Policy("append", List.of());
  private static final TablePolicyLog.Policy BY_ID =
      new TablePolicyLog.Policy("merge_by_key", List.of("id"));
  private static final TablePolicyLog.Policy BY_RECORD_KEY =
      new TablePolicyLog.Policy("merge_by_key", List.of());

  private final LakeLayout layout = new LakeLayout();
  private final InMemoryLakeStorage storage = new InMemoryLakeStorage();
  private final TablePolicyLog log = new TablePolicyLog(storage, layout);

  @Test
  void aTableWithoutARecordHasNoPolicy() {
    assertThat(log.current("orders")).isEmpty();
  }

  @Test
  void recordingIsIdempotentAndAChangeIsANewVersion() throws IOException {
    assertThat(log.record("orders", BY_ID)).isEqualTo(new TablePolicyLog.Recorded(1, BY_ID));
    assertThat(log.record("orders", BY_ID)).isEqualTo(new TablePolicyLog.Recorded(1, BY_ID));
    assertThat(storage.list(layout.policyPrefix("orders"))).hasSize(1);

    assertThat(log.record("orders", BY_RECORD_KEY).version()).isEqualTo(2);
    assertThat(log.record("orders", APPEND).version()).isEqualTo(3);
    assertThat(log.current("orders")).contains(new TablePolicyLog.Recorded(3, APPEND));
    assertThat(log.read(layout.policyKey("orders", 1))).isEqualTo(BY_ID);
    assertThat(log.read(layout.policyKey("orders", 2))).isEqualTo(BY_RECORD_KEY);
    assertThat(log.current("customers")).isEmpty();

    log.record("customers", APPEND);
    assertThat(log.currentAll())
        .containsExactly(
            Map.entry("customers", new TablePolicyLog.Recorded(1, APPEND)),
            Map.entry("orders", new TablePolicyLog.Recorded(3, APPEND)));
  }

  @Test
  void theDocumentIsSealedJsonOfTheDocumentedFields() throws IOException {
    log.record("orders", BY_ID);

    String json =
        new String(
            storage.read("_skippr/policy/orders/00000000000000000001.json"),
            StandardCharsets.UTF_8);
    assertThat(json)
        .startsWith(
            "{\"version\":1,\"kind\":\"table-policy\",\"table\":\"orders\",\"policy_version\":1,"
                + "\"write_policy\":\"merge_by_key\",\"merge_key_fields\":[\"id\"],\"sha256\":\"")
        .endsWith("\"}");
  }

  @Test
  void ofWritersRecordingAtOnceEachEndsWithItsOwnPolicyStoredAndNoVersionIsLost() throws Exception {
    int writers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<TablePolicyLog.Recorded>> results = new ArrayList<>();
    try {
      for (int i = 0; i < writers; i++) {
        TablePolicyLog.Policy policy = i % 2 == 0 ? BY_ID : APPEND;
        TablePolicyLog writer = new TablePolicyLog(storage, layout);
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return writer.record("orders", policy);
                }));
      }
      start.countDown();
      for (int i = 0; i < writers; i++) {
        TablePolicyLog.Recorded recorded = results.get(i).get();
        assertThat(recorded.policy()).isEqualTo(i % 2 == 0 ? BY_ID : APPEND);
        assertThat(log.read(layout.policyKey("orders", recorded.version())))
            .isEqualTo(recorded.policy());
      }
    } finally {
      pool.shutdownNow();
    }
    List<String> versions = storage.list(layout.policyPrefix("orders"));
    for (int i = 0; i < versions.size(); i++) {
      assertThat(LakeLayout.seqOf(versions.get(i))).isEqualTo(i + 1);
      if (i > 0) {
        assertThat(log.read(versions.get(i))).isNotEqualTo(log.read(versions.get(i - 1)));
      }
    }
  }

  @Test
  void aDamagedNewestVersionIsRefusedWithTheWayOut() throws IOException {
    log.record("orders", BY_ID);
    String key = layout.policyKey("orders", 1);
    byte[] bytes = storage.read(key);
    bytes[bytes.length / 2] ^= 1;
    replace(key, bytes);

    assertThatThrownBy(() -> log.current("orders"))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining(key)
        .hasMessageContaining("restored from a backup");
    assertThatThrownBy(() -> log.record("orders", BY_ID)).isInstanceOf(LogFormatException.class);
  }

  @Test
  void aPolicyCopiedToAnotherTableOrVersionIsRefused() throws IOException {
    log.record("orders", BY_ID);
    byte[] bytes = storage.read(layout.policyKey("orders", 1));
    storage.createIfAbsent(layout.policyKey("customers", 1), bytes);
    storage.createIfAbsent(layout.policyKey("orders", 2), bytes);

    assertThatThrownBy(() -> log.current("customers"))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("names table \"orders\", not customers");
    assertThatThrownBy(() -> log.current("orders"))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("names policy version 1, not 2");
  }

  @Test
  void anUnsealedOrUnknownOrNewerPolicyIsRefused() throws IOException {
    String unsealed =
        "{\"version\":1,\"kind\":\"table-policy\",\"table\":\"a\",\"policy_version\":1,"
            + "\"write_policy\":\"append\"}";
    storage.createIfAbsent(layout.policyKey("a", 1), unsealed.getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> log.current("a"))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("has no checksum");

    storage.createIfAbsent(layout.policyKey("b", 1), sealed("b", "upsert", 1));
    assertThatThrownBy(() -> log.current("b"))
        .isInstanceOf(LogFormatException.class)
        .hasMessageContaining("holds no write policy this version knows");

    storage.createIfAbsent(layout.policyKey("c", 1), sealed("c", "append", 99));
    assertThatThrownBy(() -> log.current("c"))
        .isInstanceOfSatisfying(
            LogFormatException.class, e -> assertThat(e.isNewerFormat()).isTrue());
  }

  @Test
  void otherDocumentsUnderThePrefixAreIgnored() throws IOException {
    storage.createIfAbsent(layout.policyPrefix("orders") + "notes.txt", new byte[] {1});
    assertThat(log.current("orders")).isEmpty();
    log.record("orders", APPEND);
    assertThat(log.current("orders")).contains(new TablePolicyLog.Recorded(1, APPEND));
  }

  private static byte[] sealed(String table, String policy, int version) {
    var node = SealedJson.MAPPER.createObjectNode();
    node.put("version", version);
    node.put("kind", "table-policy");
    node.put("table", table);
    node.put("policy_version", 1);
    node.put("write_policy", policy);
    return SealedJson.seal(node);
  }

  private void replace(String key, byte[] bytes) throws IOException {
    storage.delete(key);
    storage.createIfAbsent(key, bytes);
  }
}
