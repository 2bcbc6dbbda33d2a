package io.skippr.connect.state.api;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every backend promises. A backend test extends this class and says how to configure its
 * store; stores are opened through {@link StateStores#open} so the whole stack (settings, provider
 * lookup, secret protection) is exercised per backend. Each test works in a fresh scope.
 */
public abstract class StateStoreContractTest {
  protected static final String KEY_A = Base64.getEncoder().encodeToString(bytes(32, 1));
  protected static final String KEY_B = Base64.getEncoder().encodeToString(bytes(32, 2));

  @TempDir protected Path workingDirectory;

  protected StateStore store;
  protected StateScope scope;

  /** Connector settings ({@code store.*}) that select and configure the backend under test. */
  protected abstract Map<String, String> storeConfig();

  @BeforeEach
  void openStore() {
    scope = new StateScope("t-" + UUID.randomUUID(), "ws", "pipe");
    store = open(Map.of(SecretCodec.ENV_STATE_KEY, KEY_A), Map.of());
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  protected StateStore open(Map<String, String> env, Map<String, String> extraConfig) {
    Map<String, String> config = new HashMap<>(storeConfig());
    config.putAll(extraConfig);
    return StateStores.open(config, StoreEnvironment.of(env, workingDirectory));
  }

  protected StateKey key(StateKind kind, String id) {
    return StateKey.of(scope, kind, id);
  }

  @Test
  void absentRowsHaveNoEntryAndVersionZero() {
    StateKey key = key(StateKind.OFFSET, "absent");
    assertThat(store.get(key)).isEmpty();
    assertThat(store.compareAndSet(key, 1, utf8("x"))).isEmpty();
    assertThat(store.get(key)).isEmpty();
    assertThat(store.compareAndSet(key, 0, utf8("x")))
        .get()
        .extracting(StateEntry::version)
        .isEqualTo(1L);
  }

  @Test
  void putBumpsTheVersionAndRecordsChecksumAndTime() throws Exception {
    StateKey key = key(StateKind.PROGRESS, "orders/0");
    Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    StateEntry first = store.put(key, utf8("{\"end\":41}"));
    StateEntry second = store.put(key, utf8("{\"end\":\"marker\"}"));
    Instant after = Instant.now();

    assertThat(first.version()).isEqualTo(1);
    assertThat(second.version()).isEqualTo(2);
    StateEntry read = store.get(key).orElseThrow();
    assertThat(read).isEqualTo(second);
    assertThat(new String(read.value(), UTF_8)).isEqualTo("{\"end\":\"marker\"}");
    String expectedSha =
        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(read.value()));
    assertThat(read.sha256()).isEqualTo(expectedSha);
    assertThat(read.updatedAt()).isBetween(before, after);
    assertThat(read.toString()).doesNotContain("marker");
  }

  @Test
  void compareAndSetWritesOnlyOnTheExpectedVersion() {
    StateKey key = key(StateKind.OFFSET, "cas");
    assertThat(store.compareAndSet(key, 0, utf8("one"))).isPresent();
    assertThat(store.compareAndSet(key, 0, utf8("again"))).isEmpty();
    assertThat(store.compareAndSet(key, 2, utf8("ahead"))).isEmpty();
    assertThat(store.compareAndSet(key, 1, utf8("two")))
        .get()
        .extracting(StateEntry::version)
        .isEqualTo(2L);
    assertThat(new String(store.get(key).orElseThrow().value(), UTF_8)).isEqualTo("two");
  }

  @Test
  void emptyValuesAreValues() {
    StateKey key = key(StateKind.OFFSET, "empty");
    store.put(key, new byte[0]);
    assertThat(store.get(key).orElseThrow().value()).isEmpty();
  }

  @Test
  void deleteReturnsTheRowToVersionZero() {
    StateKey key = key(StateKind.LEASE, "gone");
    assertThat(store.delete(key)).isFalse();
    store.put(key, utf8("a"));
    store.put(key, utf8("b"));
    assertThat(store.compareAndDelete(key, 1)).isFalse();
    assertThat(store.get(key)).isPresent();
    assertThat(store.compareAndDelete(key, 2)).isTrue();
    assertThat(store.get(key)).isEmpty();
    assertThat(store.compareAndSet(key, 0, utf8("c")))
        .get()
        .extracting(StateEntry::version)
        .isEqualTo(1L);
    assertThat(store.delete(key)).isTrue();
    assertThat(store.get(key)).isEmpty();
  }

  @Test
  void scopesAndKindsDoNotLeakIntoEachOther() {
    StateScope sibling = new StateScope(scope.tenant(), scope.workspace(), scope.pipeline() + "2");
    store.put(key(StateKind.PROGRESS, "t/0"), utf8("mine"));
    store.put(key(StateKind.OFFSET, "t/0"), utf8("offset"));
    store.put(StateKey.of(sibling, StateKind.PROGRESS, "t/0"), utf8("sibling"));

    List<StateEntry> mine = store.scanAll(scope, StateKind.PROGRESS.prefix());
    assertThat(mine).extracting(e -> new String(e.value(), UTF_8)).containsExactly("mine");
    assertThat(store.scanAll(scope, "")).hasSize(2);
    assertThat(store.get(StateKey.of(sibling, StateKind.PROGRESS, "t/0")).orElseThrow().value())
        .asString(UTF_8)
        .isEqualTo("sibling");
  }

  @Test
  void scanOrdersKeysByTheirUtf8Bytes() {
    for (String id : List.of("é", "z", "a", "B", "a/b", "a0")) {
      store.put(key(StateKind.OFFSET, id), utf8(id));
    }
    // UTF-8 byte order: "B" < "a" < "a/b" < "a0" < "z" < "é".
    assertThat(store.scanAll(scope, StateKind.OFFSET.prefix()))
        .extracting(e -> e.key().id())
        .containsExactly("B", "a", "a/b", "a0", "z", "é");
    assertThat(store.scan(scope, StateKind.OFFSET.prefix("a"), null, 10).entries())
        .extracting(e -> e.key().id())
        .containsExactly("a", "a/b", "a0");
  }

  @Test
  void scanPagesThroughMoreThanOneMegabyte() throws Exception {
    // 160 rows of 8 KiB: 1.3 MB, more than one DynamoDB query response may carry.
    Random random = new Random(7);
    Map<String, byte[]> expected = new TreeMap<>();
    for (int i = 0; i < 160; i++) {
      byte[] value = new byte[8 * 1024];
      random.nextBytes(value);
      expected.put(StateKind.PROGRESS.prefix(String.format("orders/%05d", i)), value);
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<StateEntry>> writes = new ArrayList<>();
      expected.forEach(
          (k, v) -> writes.add(pool.submit(() -> store.put(StateKey.parse(scope, k), v))));
      for (Future<StateEntry> w : writes) {
        w.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    store.put(key(StateKind.PROGRESS, "other/0"), utf8("not in the prefix"));
    store.put(key(StateKind.OFFSET, "orders/00001"), utf8("other kind"));
    String prefix = StateKind.PROGRESS.prefix("orders/");

    StatePage whole = store.scan(scope, prefix, null, 1000);
    assertThat(whole.entries())
        .extracting(e -> e.key().encoded())
        .containsExactlyElementsOf(expected.keySet());
    assertThat(whole.hasMore()).isFalse();

    List<String> seen = new ArrayList<>();
    List<Integer> pageSizes = new ArrayList<>();
    String after = null;
    do {
      StatePage page = store.scan(scope, prefix, after, 50);
      for (StateEntry e : page.entries()) {
        assertThat(e.value()).isEqualTo(expected.get(e.key().encoded()));
        seen.add(e.key().encoded());
      }
      pageSizes.add(page.entries().size());
      after = page.nextStartAfter().orElse(null);
    } while (after != null);
    assertThat(seen).containsExactlyElementsOf(expected.keySet());
    assertThat(pageSizes).containsExactly(50, 50, 50, 10);

    StatePage tail = store.scan(scope, prefix, seen.get(156), 50);
    assertThat(tail.entries())
        .extracting(e -> e.key().encoded())
        .containsExactlyElementsOf(seen.subList(157, 160));
    assertThat(tail.hasMore()).isFalse();
    assertThat(store.scan(scope, prefix, "a", 5).entries()).hasSize(5);
    assertThat(store.scan(scope, prefix, "z", 5).entries()).isEmpty();
  }

  @Test
  void concurrentCompareAndSetHasExactlyOneWinnerPerVersion() throws Exception {
    StateKey key = key(StateKind.OFFSET, "race");
    int threads = 6;
    int attempts = 25;
    ConcurrentMap<Long, String> winners = new ConcurrentHashMap<>();
    AtomicLong duplicates = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String name = "writer-" + t;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int a = 0; a < attempts; a++) {
                    long seen = store.get(key).map(StateEntry::version).orElse(0L);
                    String payload = name + "/" + a;
                    store
                        .compareAndSet(key, seen, utf8(payload))
                        .ifPresent(
                            e -> {
                              if (winners.putIfAbsent(e.version(), payload) != null) {
                                duplicates.incrementAndGet();
                              }
                            });
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(duplicates.get()).isZero();
    StateEntry last = store.get(key).orElseThrow();
    assertThat(winners.keySet()).hasSize((int) last.version());
    assertThat(winners.keySet()).allMatch(v -> v >= 1 && v <= last.version());
    assertThat(new String(last.value(), UTF_8)).isEqualTo(winners.get(last.version()));
  }

  @Test
  void leaseIsTakenOverOnlyAfterTheHeartbeatStoodStillForTheLeaseDuration() {
    StateKey lease = key(StateKind.LEASE, "orders/0");
    Duration duration = Duration.ofSeconds(30);
    AtomicLong holderClock = new AtomicLong(5_000);
    AtomicLong contenderClock = new AtomicLong(-9_000_000_000L);
    Leases holder = new Leases(store, "holder", duration, holderClock::get);
    Leases contender = new Leases(store, "contender", duration, contenderClock::get);

    Lease held = holder.tryAcquire(lease).orElseThrow();
    assertThat(contender.tryAcquire(lease)).isEmpty();
    contenderClock.addAndGet(duration.toNanos() - 1);
    assertThat(contender.tryAcquire(lease)).as("not yet a full duration").isEmpty();

    held = holder.heartbeat(held).orElseThrow();
    contenderClock.addAndGet(duration.toNanos() * 10);
    assertThat(contender.tryAcquire(lease)).as("the heartbeat moved: observe again").isEmpty();
    contenderClock.addAndGet(duration.toNanos() / 2);
    held = holder.heartbeat(held).orElseThrow();
    contenderClock.addAndGet(duration.toNanos());
    assertThat(contender.tryAcquire(lease)).as("moved again").isEmpty();
    assertThat(holder.holder(lease)).contains("holder");

    contenderClock.addAndGet(duration.toNanos());
    Lease taken = contender.tryAcquire(lease).orElseThrow();
    assertThat(holder.holder(lease)).contains("contender");
    assertThat(holder.heartbeat(held)).as("the old holder learns it lost").isEmpty();
    assertThat(holder.release(held)).isFalse();
    assertThat(holder.tryAcquire(lease)).isEmpty();

    assertThat(contender.release(taken)).isTrue();
    assertThat(holder.tryAcquire(lease)).as("released leases are free at once").isPresent();
  }

  @Test
  void aLeaseWhoseHolderIsKnownToBeGoneIsTakenAtOnce() {
    StateKey lease = key(StateKind.LEASE, "sync/orders");
    Duration duration = Duration.ofMinutes(5);
    Leases holder = new Leases(store, "pid 41", duration, () -> 0L);
    Leases contender = new Leases(store, "pid 42", duration, () -> 0L);
    Lease held = holder.tryAcquire(lease).orElseThrow();

    assertThat(contender.tryAcquire(lease, name -> name.equals("pid 7"))).isEmpty();
    assertThat(contender.tryAcquire(lease, name -> name.equals("pid 41"))).isPresent();
    assertThat(holder.holder(lease)).contains("pid 42");
    assertThat(holder.heartbeat(held)).as("the old holder learns it lost").isEmpty();
  }

  @Test
  void aLeaseIsHeldByAnotherWhileItsHeartbeatMoves() {
    StateKey lease = key(StateKind.LEASE, "compact/lake");
    Duration duration = Duration.ofSeconds(30);
    AtomicLong clock = new AtomicLong();
    Leases holder = new Leases(store, "compactor", duration, () -> 0L);
    Leases task = new Leases(store, "task", duration, clock::get);
    assertThat(task.heldByOther(lease)).as("free").isFalse();
    Lease held = holder.tryAcquire(lease).orElseThrow();
    assertThat(task.heldByOther(lease)).isTrue();
    assertThat(holder.heldByOther(lease)).as("not by another for its holder").isFalse();
    clock.addAndGet(duration.toNanos() - 1);
    held = holder.heartbeat(held).orElseThrow();
    clock.addAndGet(duration.toNanos() - 1);
    assertThat(task.heldByOther(lease)).as("the heartbeat moved").isTrue();
    clock.addAndGet(duration.toNanos());
    assertThat(task.heldByOther(lease)).as("a holder that stopped beating").isFalse();
    holder.release(held);
    assertThat(task.heldByOther(lease)).isFalse();
  }

  @Test
  void rowsSurviveClosingAndReopening() {
    StateKey key = key(StateKind.PROGRESS, "durable");
    store.put(key, utf8("kept"));
    store.close();
    store = open(Map.of(SecretCodec.ENV_STATE_KEY, KEY_A), Map.of());
    assertThat(store.get(key).orElseThrow().value()).asString(UTF_8).isEqualTo("kept");
    assertThat(store.get(key).orElseThrow().version()).isEqualTo(1);
  }

  @Test
  void secretsAreEncryptedAtRestAndReadBackWithTheKey() {
    StateKey token = key(StateKind.SECRET, "oauth/google");
    byte[] plain = utf8("refresh-token-123456");
    StateEntry written = store.put(token, plain);
    assertThat(written.value()).isEqualTo(plain);
    assertThat(store.get(token).orElseThrow().value()).isEqualTo(plain);

    try (StateStore raw = open(Map.of(), Map.of(StateStoreConfig.STORE_ENCRYPTION, "off"))) {
      byte[] atRest = raw.get(token).orElseThrow().value();
      assertThat(new String(atRest, UTF_8)).doesNotContain("refresh-token");
      assertThat(atRest.length).isGreaterThan(plain.length);
    }
    assertThat(store.put(token, plain).sha256())
        .as("a fresh nonce per write")
        .isNotEqualTo(written.sha256());
  }

  @Test
  void secretsNeedTheRightKey() {
    StateKey token = key(StateKind.SECRET, "oauth/github");
    store.put(token, utf8("s3cr3t"));
    try (StateStore wrongKey = open(Map.of(SecretCodec.ENV_STATE_KEY, KEY_B), Map.of())) {
      assertThatThrownBy(() -> wrongKey.get(token))
          .isInstanceOf(StateStoreException.class)
          .hasMessageContaining("key id")
          .hasMessageContaining(SecretCodec.ENV_STATE_KEY)
          .hasMessageNotContaining("s3cr3t");
    }
    try (StateStore noKey = open(Map.of(), Map.of())) {
      assertThatThrownBy(() -> noKey.put(key(StateKind.SECRET, "other"), utf8("x")))
          .isInstanceOf(StateStoreException.class)
          .hasMessageContaining("SKIPPR_STATE_KEY is not set")
          .hasMessageContaining("store.encryption=off");
      assertThat(noKey.get(key(StateKind.SECRET, "other"))).isEmpty();
      noKey.put(key(StateKind.OFFSET, "fine"), utf8("offsets need no key"));
    }
  }

  protected static byte[] utf8(String text) {
    return text.getBytes(UTF_8);
  }

  private static byte[] bytes(int length, int seed) {
    byte[] b = new byte[length];
    new Random(seed).nextBytes(b);
    return b;
  }
}
