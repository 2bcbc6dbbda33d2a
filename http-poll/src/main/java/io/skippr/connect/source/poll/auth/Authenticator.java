package io.skippr.connect.source.poll.auth;

import io.skippr.connect.source.poll.http.RequestFailure;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Adds credentials to an endpoint's requests. */
public interface Authenticator {

  /**
   * Adds credentials, first fetching or refreshing an access token when one is needed.
   *
   * @throws RequestFailure when the token endpoint fails (transient or permanent)
   */
  void authorize(HttpRequest.Builder request) throws RequestFailure, InterruptedException;

  /** Whether a 401 may be cured by a new access token (then {@link #invalidate} is called). */
  default boolean canRefresh() {
    return false;
  }

  /** Forgets the access token after a 401, so the next request fetches a new one. */
  default void invalidate() {}

  /** No credentials. */
  Authenticator NONE = request -> {};

  /** HTTP basic authentication. */
  static Authenticator basic(String username, String password) {
    String value = "Basic " + basicCredentials(username, password);
    return request -> request.header("Authorization", value);
  }

  /** A static bearer token. */
  static Authenticator bearer(String token) {
    String value = "Bearer " + token;
    return request -> request.header("Authorization", value);
  }

  /** {@code base64(user:password)} as RFC 7617 has it. */
  static String basicCredentials(String username, String password) {
    return Base64.getEncoder()
        .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
  }
}
