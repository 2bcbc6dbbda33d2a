package io.skippr.connect.source.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class TokenAuthTest {

  @Test
  void offAllowsEverything() {
    assertThat(new TokenAuth(null).allows(null, null)).isTrue();
  }

  @Test
  void acceptsEverySupportedWayOfPresentingTheToken() {
    TokenAuth auth = new TokenAuth("t0k");
    String basic = Base64.getEncoder().encodeToString("user:t0k".getBytes(StandardCharsets.UTF_8));
    assertThat(auth.allows("Token t0k", null)).isTrue();
    assertThat(auth.allows("token  t0k ", null)).isTrue();
    assertThat(auth.allows("Bearer t0k", null)).isTrue();
    assertThat(auth.allows("Basic " + basic, null)).isTrue();
    assertThat(auth.allows(null, "t0k")).isTrue();
  }

  @Test
  void refusesWrongMissingOrMalformedCredentials() {
    TokenAuth auth = new TokenAuth("t0k");
    assertThat(auth.allows(null, null)).isFalse();
    assertThat(auth.allows("Token t0kx", null)).isFalse();
    assertThat(auth.allows("t0k", null)).isFalse();
    assertThat(auth.allows("Digest t0k", null)).isFalse();
    assertThat(auth.allows("Basic !!!", null)).isFalse();
    assertThat(auth.allows("Token wrong", "t0k")).isFalse();
  }
}
