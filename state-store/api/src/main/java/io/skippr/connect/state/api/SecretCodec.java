package io.skippr.connect.state.api;

import io.skippr.connect.common.Sha256;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-GCM-256 for {@code secret#…} rows.
 *
 * <p>Blob layout: format byte (1), key id (8 bytes, derived from the key so a wrong key is named as
 * such), random 12-byte nonce, ciphertext with 16-byte tag. The row's scope and key are the
 * associated data, so a blob copied to another row fails authentication.
 */
public final class SecretCodec {
  public static final String ENV_STATE_KEY = "SKIPPR_STATE_KEY";
  private static final byte FORMAT = 1;
  private static final int KEY_ID_BYTES = 8;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final int HEADER_BYTES = 1 + KEY_ID_BYTES + NONCE_BYTES;

  private final SecretKeySpec key;
  private final byte[] keyId;
  private final SecureRandom random = new SecureRandom();

  private SecretCodec(byte[] rawKey) {
    if (rawKey.length != 32) {
      throw new StateStoreException(
          ENV_STATE_KEY
              + " must be 32 bytes encoded as base64 (e.g. from `openssl rand -base64 32`); it "
              + "decodes to "
              + rawKey.length
              + " bytes");
    }
    this.key = new SecretKeySpec(rawKey, "AES");
    byte[] label = "skippr-state-key-id:".getBytes(StandardCharsets.US_ASCII);
    byte[] material = ByteBuffer.allocate(label.length + 32).put(label).put(rawKey).array();
    this.keyId = Arrays.copyOf(Sha256.digest(material), KEY_ID_BYTES);
  }

  /** A codec for a base64 key, as {@code SKIPPR_STATE_KEY} holds it. */
  public static SecretCodec ofBase64(String base64Key) {
    byte[] raw;
    try {
      raw = Base64.getDecoder().decode(base64Key.strip());
    } catch (IllegalArgumentException e) {
      throw new StateStoreException(ENV_STATE_KEY + " is not valid base64", e);
    }
    return new SecretCodec(raw);
  }

  /** The codec for {@code SKIPPR_STATE_KEY}, or null when it is not set. */
  static SecretCodec fromEnvironment(StoreEnvironment env) {
    return env.variable(ENV_STATE_KEY).map(SecretCodec::ofBase64).orElse(null);
  }

  /** Hex id of this key, safe to log. */
  public String keyId() {
    return HexFormat.of().formatHex(keyId);
  }

  public byte[] encrypt(StateKey row, byte[] plaintext) {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    try {
      Cipher cipher = cipher(Cipher.ENCRYPT_MODE, nonce, row);
      byte[] sealed = cipher.doFinal(plaintext);
      return ByteBuffer.allocate(HEADER_BYTES + sealed.length)
          .put(FORMAT)
          .put(keyId)
          .put(nonce)
          .put(sealed)
          .array();
    } catch (GeneralSecurityException e) {
      throw new StateStoreException("cannot encrypt secret " + row + ": " + e.getMessage(), e);
    }
  }

  public byte[] decrypt(StateKey row, byte[] blob) {
    if (blob.length < HEADER_BYTES + TAG_BITS / 8 || blob[0] != FORMAT) {
      throw new StateStoreException(
          "secret "
              + row
              + " is not an encrypted blob: it was written with store.encryption=off or by "
              + "another tool");
    }
    byte[] blobKeyId = Arrays.copyOfRange(blob, 1, 1 + KEY_ID_BYTES);
    if (!Arrays.equals(blobKeyId, keyId)) {
      throw new StateStoreException(
          "secret "
              + row
              + " was encrypted with key id "
              + HexFormat.of().formatHex(blobKeyId)
              + " but "
              + ENV_STATE_KEY
              + " has key id "
              + keyId()
              + ": set the key it was written with");
    }
    byte[] nonce = Arrays.copyOfRange(blob, 1 + KEY_ID_BYTES, HEADER_BYTES);
    try {
      return cipher(Cipher.DECRYPT_MODE, nonce, row)
          .doFinal(blob, HEADER_BYTES, blob.length - HEADER_BYTES);
    } catch (AEADBadTagException e) {
      throw new StateStoreException(
          "secret " + row + " failed authentication: the stored blob was altered or moved", e);
    } catch (GeneralSecurityException e) {
      throw new StateStoreException("cannot decrypt secret " + row + ": " + e.getMessage(), e);
    }
  }

  private Cipher cipher(int mode, byte[] nonce, StateKey row) throws GeneralSecurityException {
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
    cipher.updateAAD(
        (row.scope().encoded() + '\0' + row.encoded()).getBytes(StandardCharsets.UTF_8));
    return cipher;
  }

  @Override
  public String toString() {
    return "SecretCodec[AES-GCM-256, keyId=" + keyId() + "]";
  }
}
