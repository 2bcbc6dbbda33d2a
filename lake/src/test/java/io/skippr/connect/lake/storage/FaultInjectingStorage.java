package io.skippr.connect.lake.storage;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Wraps a real storage and fails one chosen call, either before it takes effect or after (the
 * ambiguous case: the effect happened but the caller sees an error, like a timed-out request).
 */
public final class FaultInjectingStorage implements LakeStorage {

  /** The storage calls that can fail. {@code COMPLETE} is {@link PendingObject#complete()}. */
  public enum Op {
    CREATE_IF_ABSENT,
    CREATE,
    COMPLETE,
    READ,
    LIST,
    LIST_INCOMPLETE,
    DISCARD_INCOMPLETE,
    DELETE,
    EXISTS,
    MOVE
  }

  /** Whether the failing call takes effect before the error. */
  public enum When {
    BEFORE,
    AFTER
  }

  private final LakeStorage delegate;
  private final List<String> journal = new ArrayList<>();
  private Op failOp;
  private Predicate<String> failKey;
  private Predicate<byte[]> failContent = content -> true;
  private int failOccurrence;
  private When failWhen;
  private int matches;
  private boolean fired;
  private Hook hook;
  private Set<Op> observed = Set.of();
  private Hook observer;

  public FaultInjectingStorage(LakeStorage delegate) {
    this.delegate = delegate;
  }

  /**
   * Fails the {@code occurrence}-th (1-based) call of {@code op} whose key matches.
   *
   * @return this
   */
  public FaultInjectingStorage failAt(Op op, Predicate<String> key, int occurrence, When when) {
    this.failOp = op;
    this.failKey = key;
    this.failContent = content -> true;
    this.hook = null;
    this.failOccurrence = occurrence;
    this.failWhen = when;
    this.matches = 0;
    this.fired = false;
    return this;
  }

  /**
   * Fails the {@code occurrence}-th (1-based) log entry of a kind (e.g. {@code "commit"}) created
   * with {@link #createIfAbsent}.
   *
   * @return this
   */
  public FaultInjectingStorage failAtEntry(String kind, int occurrence, When when) {
    failAt(Op.CREATE_IF_ABSENT, key -> true, occurrence, when);
    String marker = "\"kind\":\"" + kind + "\"";
    this.failContent =
        content -> new String(content, java.nio.charset.StandardCharsets.UTF_8).contains(marker);
    return this;
  }

  /** An action run in place of a fault: the call then proceeds normally. */
  public interface Hook {
    void run() throws IOException;
  }

  /**
   * Runs {@code hook} just before the {@code occurrence}-th call of {@code op}, which then
   * proceeds: a way to let another writer act in the middle of this one's protocol.
   *
   * @return this
   */
  public FaultInjectingStorage runBefore(Op op, int occurrence, Hook hook) {
    failAt(op, key -> true, occurrence, When.BEFORE);
    this.hook = hook;
    return this;
  }

  /**
   * Runs {@code observer} before every call of the given ops, faults or not: a way to look at the
   * lake between any two steps of a protocol.
   *
   * @return this
   */
  public synchronized FaultInjectingStorage observeBefore(Set<Op> ops, Hook observer) {
    this.observed = Set.copyOf(ops);
    this.observer = observer;
    return this;
  }

  /** True once the fault was injected. */
  public synchronized boolean fired() {
    return fired;
  }

  /** Every call made, as {@code "OP key"}, in order. */
  public synchronized List<String> journal() {
    return journal;
  }

  /** How many calls of {@code op} were made. */
  public synchronized long count(Op op) {
    return journal.stream().filter(line -> line.startsWith(op.name() + " ")).count();
  }

  @Override
  public boolean createIfAbsent(String key, byte[] content) throws IOException {
    return call(Op.CREATE_IF_ABSENT, key, content, () -> delegate.createIfAbsent(key, content));
  }

  @Override
  public PendingObject create(String key) throws IOException {
    PendingObject pending = call(Op.CREATE, key, () -> delegate.create(key));
    return new PendingObject() {
      @Override
      public String key() {
        return pending.key();
      }

      @Override
      public OutputStream stream() {
        return pending.stream();
      }

      @Override
      public void complete() throws IOException {
        call(
            Op.COMPLETE,
            key,
            () -> {
              pending.complete();
              return null;
            });
      }

      @Override
      public void abort() {
        pending.abort();
      }
    };
  }

  @Override
  public byte[] read(String key) throws IOException {
    return call(Op.READ, key, () -> delegate.read(key));
  }

  @Override
  public List<String> list(String prefix) throws IOException {
    return call(Op.LIST, prefix, () -> delegate.list(prefix));
  }

  @Override
  public List<String> listIncomplete(String prefix) throws IOException {
    return call(Op.LIST_INCOMPLETE, prefix, () -> delegate.listIncomplete(prefix));
  }

  @Override
  public void discardIncomplete(String key) throws IOException {
    call(
        Op.DISCARD_INCOMPLETE,
        key,
        () -> {
          delegate.discardIncomplete(key);
          return null;
        });
  }

  @Override
  public void delete(String key) throws IOException {
    call(
        Op.DELETE,
        key,
        () -> {
          delegate.delete(key);
          return null;
        });
  }

  /** A move's key, for faults and the journal, is its source. */
  @Override
  public void move(String from, String to) throws IOException {
    call(
        Op.MOVE,
        from,
        () -> {
          delegate.move(from, to);
          return null;
        });
  }

  @Override
  public boolean exists(String key) throws IOException {
    return call(Op.EXISTS, key, () -> delegate.exists(key));
  }

  @Override
  public String location() {
    return delegate.location();
  }

  private interface Call<T> {
    T run() throws IOException;
  }

  private <T> T call(Op op, String key, Call<T> call) throws IOException {
    return call(op, key, null, call);
  }

  private <T> T call(Op op, String key, byte[] content, Call<T> call) throws IOException {
    Hook look;
    synchronized (this) {
      look = observed.contains(op) ? observer : null;
    }
    if (look != null) {
      look.run();
    }
    boolean fire;
    synchronized (this) { // files of a unit may be written side by side
      journal.add(op.name() + " " + key);
      fire =
          !fired
              && op == failOp
              && failKey.test(key)
              && (content == null || failContent.test(content))
              && ++matches == failOccurrence;
      fired |= fire;
    }
    if (!fire) {
      return call.run();
    }
    if (hook != null) {
      hook.run();
      return call.run();
    }
    if (failWhen == When.AFTER) {
      call.run();
    }
    throw new IOException("injected fault " + failWhen.name().toLowerCase() + " " + op + " " + key);
  }
}
