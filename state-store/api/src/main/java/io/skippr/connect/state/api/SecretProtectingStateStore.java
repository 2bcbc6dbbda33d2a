package io.skippr.connect.state.api;

import java.util.List;
import java.util.Optional;

/**
 * Encrypts {@code secret#…} values on the way in and decrypts them on the way out; refuses them
 * when encryption is on but no key is set. Other kinds pass through untouched.
 */
final class SecretProtectingStateStore implements StateStore {
  private final StateStore delegate;
  private final boolean encryption;
  private final SecretCodec codec;

  SecretProtectingStateStore(StateStore delegate, boolean encryption, SecretCodec codec) {
    this.delegate = delegate;
    this.encryption = encryption;
    this.codec = codec;
  }

  @Override
  public Optional<StateEntry> get(StateKey key) {
    return delegate.get(key).map(this::open);
  }

  @Override
  public StateEntry put(StateKey key, byte[] value) {
    return delegate.put(key, seal(key, value)).withValue(value);
  }

  @Override
  public Optional<StateEntry> compareAndSet(StateKey key, long expectedVersion, byte[] value) {
    return delegate
        .compareAndSet(key, expectedVersion, seal(key, value))
        .map(e -> e.withValue(value));
  }

  @Override
  public boolean delete(StateKey key) {
    return delegate.delete(key);
  }

  @Override
  public boolean compareAndDelete(StateKey key, long expectedVersion) {
    return delegate.compareAndDelete(key, expectedVersion);
  }

  @Override
  public StatePage scan(StateScope scope, String keyPrefix, String startAfter, int limit) {
    StatePage page = delegate.scan(scope, keyPrefix, startAfter, limit);
    return new StatePage(page.entries().stream().map(this::open).toList(), page.nextStartAfter());
  }

  /** Names only: listing secrets needs no key and decrypts nothing. */
  @Override
  public List<StateKey> keys(StateScope scope, String keyPrefix) {
    return delegate.keys(scope, keyPrefix);
  }

  @Override
  public String describe() {
    return delegate.describe();
  }

  @Override
  public void close() {
    delegate.close();
  }

  private byte[] seal(StateKey key, byte[] value) {
    if (key.kind() != StateKind.SECRET || !encryption) {
      return value;
    }
    return requireCodec("refusing to store", key).encrypt(key, value);
  }

  private StateEntry open(StateEntry entry) {
    StateKey key = entry.key();
    if (key.kind() != StateKind.SECRET || !encryption) {
      return entry;
    }
    return entry.withValue(requireCodec("cannot read", key).decrypt(key, entry.value()));
  }

  private SecretCodec requireCodec(String action, StateKey key) {
    if (codec == null) {
      throw new StateStoreException(
          action
              + " secret "
              + key
              + ": "
              + SecretCodec.ENV_STATE_KEY
              + " is not set; set it to 32 random bytes in base64 (`openssl rand -base64 32`), "
              + "or set store.encryption=off to keep secrets in plain text");
    }
    return codec;
  }
}
