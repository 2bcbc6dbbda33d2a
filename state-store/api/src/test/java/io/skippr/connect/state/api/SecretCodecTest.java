package io.skippr.connect.state.api;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import org.junit.jupiter.api.Test;

class SecretCodecTest {
  private final StateScope scope = StateScope.ofPipeline("p");
  private final StateKey row = StateKey.of(scope, StateKind.SECRET, "oauth/x");
  private final SecretCodec codec = SecretCodec.ofBase64(StateStoreContractTest.KEY_A);

  @Test
  void roundTripsWithAFreshNoncePerWrite() {
    byte[] plain = "token".getBytes(UTF_8);
    byte[] first = codec.encrypt(row, plain);
    byte[] second = codec.encrypt(row, plain);
    assertThat(first).isNotEqualTo(second);
    assertThat(first.length).isEqualTo(1 + 8 + 12 + plain.length + 16);
    assertThat(first[0]).isEqualTo((byte) 1);
    assertThat(codec.decrypt(row, first)).isEqualTo(plain);
    assertThat(codec.decrypt(row, second)).isEqualTo(plain);
  }

  @Test
  void wrongKeysTamperingAndMovedBlobsAreRefusedClearly() {
    byte[] blob = codec.encrypt(row, "token".getBytes(UTF_8));
    SecretCodec other = SecretCodec.ofBase64(StateStoreContractTest.KEY_B);
    assertThatThrownBy(() -> other.decrypt(row, blob))
        .isInstanceOf(StateStoreException.class)
        .hasMessageContaining("encrypted with key id " + codec.keyId())
        .hasMessageContaining("has key id " + other.keyId());

    byte[] tampered = blob.clone();
    tampered[tampered.length - 1] ^= 1;
    assertThatThrownBy(() -> codec.decrypt(row, tampered)).hasMessageContaining("authentication");

    StateKey elsewhere = StateKey.of(scope, StateKind.SECRET, "oauth/y");
    assertThatThrownBy(() -> codec.decrypt(elsewhere, blob)).hasMessageContaining("authentication");
    assertThatThrownBy(() -> codec.decrypt(row, "plain".getBytes(UTF_8)))
        .hasMessageContaining("store.encryption=off");
  }

  @Test
  void keysMustBe32BytesOfBase64AndAreNeverPrinted() {
    assertThatThrownBy(() -> SecretCodec.ofBase64(Base64.getEncoder().encodeToString(new byte[16])))
        .hasMessageContaining("32 bytes")
        .hasMessageContaining("16 bytes");
    assertThatThrownBy(() -> SecretCodec.ofBase64("not base64!"))
        .hasMessageContaining("not valid base64");
    assertThat(codec.toString())
        .doesNotContain(StateStoreContractTest.KEY_A)
        .contains(codec.keyId());
  }
}
