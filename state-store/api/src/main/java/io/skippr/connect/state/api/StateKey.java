package io.skippr.connect.state.api;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/** A row's address: its pipeline scope and its key {@code {kind}#{id}} within that scope. */
public record StateKey(StateScope scope, StateKind kind, String id) {
  /** DynamoDB's limit for a sort key; every backend enforces it so data can move between them. */
  public static final int MAX_KEY_BYTES = 1024;

  public StateKey {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(kind, "kind");
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("state key id must not be empty");
    }
    if (id.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("state key id must not contain NUL characters");
    }
    int bytes = (kind.prefix() + id).getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_KEY_BYTES) {
      throw new IllegalArgumentException(
          "state key " + kind.prefix() + "… is " + bytes + " bytes; at most " + MAX_KEY_BYTES);
    }
  }

  public static StateKey of(StateScope scope, StateKind kind, String id) {
    return new StateKey(scope, kind, id);
  }

  /** Parses an encoded key such as {@code progress#orders/0} within a scope. */
  public static StateKey parse(StateScope scope, String encodedKey) {
    StateKind kind = StateKind.ofKey(encodedKey);
    return new StateKey(scope, kind, encodedKey.substring(kind.prefix().length()));
  }

  /** The sort key: {@code {kind}#{id}}. */
  public String encoded() {
    return kind.prefix() + id;
  }

  @Override
  public String toString() {
    return scope.encoded() + "/" + encoded();
  }
}
