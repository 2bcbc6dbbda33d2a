package io.skippr.connect.state.api;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Hex SHA-256, the checksum every backend stores next to a value. */
public final class Sha256 {
  private Sha256() {}

  public static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(digest(bytes));
  }

  public static byte[] digest(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JVM lacks SHA-256", e);
    }
  }
}
