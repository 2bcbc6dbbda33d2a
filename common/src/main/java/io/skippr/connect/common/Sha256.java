package io.skippr.connect.common;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256: the checksum of stored rows and files, and the hash behind fingerprints and names. */
public final class Sha256 {
  private Sha256() {}

  /** A new digest, for content that arrives in pieces. */
  public static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JVM lacks SHA-256", e);
    }
  }

  public static byte[] digest(byte[] bytes) {
    return newDigest().digest(bytes);
  }

  /** Lowercase hex of the SHA-256 of the bytes. */
  public static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(digest(bytes));
  }

  /** Lowercase hex of the SHA-256 of the text's UTF-8 bytes. */
  public static String hex(String text) {
    return hex(text.getBytes(StandardCharsets.UTF_8));
  }
}
