package io.skippr.connect.source.poll.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.source.poll.http.RequestFailure;
import io.skippr.connect.source.poll.http.Response;
import java.io.IOException;

/**
 * A token endpoint's successful answer (RFC 6749, 5.1), checked before anything of it is used: an
 * access token that a header can carry, a refresh token when there is a string one, and the
 * lifetime. A body that is no such answer fails without a word of it in the message: it may hold
 * secrets.
 *
 * @param accessToken visible ASCII, at most {@link #MAX_TOKEN_CHARS} characters
 * @param refreshToken the rotated refresh token, or null
 * @param expiresInSeconds at least 1; {@link #NO_EXPIRY} when the answer gives no usable lifetime
 */
record TokenAnswer(String accessToken, String refreshToken, long expiresInSeconds) {

  static final long NO_EXPIRY = Long.MAX_VALUE;

  /** Longest token accepted: an access token goes into every request's header. */
  static final int MAX_TOKEN_CHARS = 16 * 1024;

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * @param where the token endpoint, for messages
   * @throws RequestFailure (permanent) when the body is no usable answer
   */
  static TokenAnswer parse(Response response, String where) throws RequestFailure {
    JsonNode body;
    try {
      body = JSON.readTree(response.body());
    } catch (IOException e) {
      throw RequestFailure.permanent(response.status(), where + " answered with a non-JSON body");
    }
    if (body == null || !body.isObject()) {
      throw RequestFailure.permanent(
          response.status(), where + " answered with JSON that is no object");
    }
    JsonNode access = body.path("access_token");
    if (!access.isTextual() || access.asText().isEmpty()) {
      throw RequestFailure.permanent(
          response.status(), where + " answered without an access_token (a non-empty string)");
    }
    String problem = problem(access.asText());
    if (problem != null) {
      throw RequestFailure.permanent(
          response.status(), where + " answered an access_token " + problem);
    }
    JsonNode refresh = body.path("refresh_token");
    String rotated = refresh.isTextual() && !refresh.asText().isEmpty() ? refresh.asText() : null;
    if (rotated != null && rotated.length() > MAX_TOKEN_CHARS) {
      throw RequestFailure.permanent(
          response.status(),
          where + " answered a refresh_token longer than " + MAX_TOKEN_CHARS + " characters");
    }
    return new TokenAnswer(access.asText(), rotated, expiresIn(body.path("expires_in")));
  }

  /** Why a header cannot carry the token, or null. */
  private static String problem(String token) {
    if (token.length() > MAX_TOKEN_CHARS) {
      return "longer than " + MAX_TOKEN_CHARS + " characters";
    }
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        return "with characters other than visible ASCII (RFC 6749, A.12)";
      }
    }
    return null;
  }

  /** Seconds, at least 1, from a number or a string of digits; else no expiry. */
  private static long expiresIn(JsonNode node) {
    if (node.isNumber() || (node.isTextual() && node.asText().matches("\\d{1,12}"))) {
      return Math.max(1, node.asLong());
    }
    return NO_EXPIRY;
  }
}
