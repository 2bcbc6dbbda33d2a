package io.skippr.connect.state.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StateKeyTest {
  @Test
  void encodesScopeAndKeyAsTheDesignSays() {
    StateScope scope = new StateScope("acme", "ws", "orders");
    StateKey key = StateKey.of(scope, StateKind.PROGRESS, "orders/3");
    assertThat(scope.encoded()).isEqualTo("acme#ws#orders");
    assertThat(key.encoded()).isEqualTo("progress#orders/3");
    assertThat(StateKey.parse(scope, "lease#x"))
        .isEqualTo(StateKey.of(scope, StateKind.LEASE, "x"));
    assertThat(StateScope.parse("acme#ws#orders")).isEqualTo(scope);
    assertThat(StateKind.SECRET.prefix("oauth/")).isEqualTo("secret#oauth/");
  }

  @Test
  void rejectsAmbiguousOrOversizedParts() {
    assertThatThrownBy(() -> new StateScope("a#b", "w", "p")).hasMessageContaining("'#'");
    assertThatThrownBy(() -> new StateScope("", "w", "p")).hasMessageContaining("empty");
    assertThatThrownBy(() -> StateScope.parse("a#b")).hasMessageContaining("tenant#workspace");
    StateScope scope = StateScope.ofPipeline("p");
    assertThatThrownBy(() -> StateKey.of(scope, StateKind.OFFSET, "x".repeat(1018)))
        .hasMessageContaining("1024");
    assertThat(StateKey.of(scope, StateKind.OFFSET, "x".repeat(1017)).encoded()).hasSize(1024);
    assertThatThrownBy(() -> StateKey.parse(scope, "unknown#x")).hasMessageContaining("kind");
  }
}
