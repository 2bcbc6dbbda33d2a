package io.skippr.connect.source.http.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Locale;

/**
 * Checks a write's token: {@code Authorization: Token t} or {@code Bearer t}, or {@code t} as the
 * password of basic auth or of the v1 {@code p} query parameter. Compared in constant time.
 */
public final class TokenAuth {

  private final byte[] expected;

  /**
   * @param token the expected token, or null when authentication is off
   */
  public TokenAuth(String token) {
    this.expected = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
  }

  public boolean enabled() {
    return expected != null;
  }

  /** Whether the request may write. */
  public boolean allows(String authorization, String passwordParam) {
    if (expected == null) {
      return true;
    }
    String presented = passwordParam;
    if (authorization != null) {
      presented = fromHeader(authorization.trim());
    }
    return presented != null
        && MessageDigest.isEqual(expected, presented.getBytes(StandardCharsets.UTF_8));
  }

  private static String fromHeader(String header) {
    int space = header.indexOf(' ');
    if (space < 0) {
      return null;
    }
    String scheme = header.substring(0, space).toLowerCase(Locale.ROOT);
    String credential = header.substring(space + 1).trim();
    switch (scheme) {
      case "token", "bearer":
        return credential;
      case "basic":
        try {
          String pair = new String(Base64.getDecoder().decode(credential), StandardCharsets.UTF_8);
          int colon = pair.indexOf(':');
          return colon < 0 ? null : pair.substring(colon + 1);
        } catch (IllegalArgumentException e) {
          return null;
        }
      default:
        return null;
    }
  }
}
