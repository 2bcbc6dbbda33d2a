package io.skippr.connect.source.poll.config;

import io.skippr.connect.source.poll.config.PaginationConfig.Mode;
import io.skippr.connect.source.poll.config.PollAuthConfig.AuthType;
import io.skippr.connect.source.poll.config.PollAuthConfig.Grant;
import io.skippr.connect.state.api.SecretCodec;
import java.util.ArrayList;
import java.util.List;

/** Checks across the keys of one endpoint; each problem names the key to change. */
final class EndpointChecks {

  /** A problem with one key. */
  record Problem(String key, String message) {}

  private EndpointChecks() {}

  /**
   * @param secretsStorable whether the state store can keep encrypted secrets (a key is set, or
   *     encryption is off)
   */
  static List<Problem> problems(EndpointSettings s, boolean secretsStorable) {
    List<Problem> problems = new ArrayList<>();
    request(s, problems);
    cursor(s, problems);
    pagination(s, problems);
    auth(s.auth(), secretsStorable, problems);
    if (s.pacing().backoffMaxMs() < s.pacing().backoffMs()) {
      problems.add(
          new Problem(
              PacingConfig.RETRY_BACKOFF_MAX_MS,
              "must be at least " + PacingConfig.RETRY_BACKOFF_MS));
    }
    return problems;
  }

  private static void request(EndpointSettings s, List<Problem> problems) {
    if (s.request().url().isEmpty()) {
      problems.add(new Problem(RequestConfig.URL, "is required: the URL to poll"));
    }
    if (s.records().topic().isEmpty()) {
      problems.add(new Problem(RecordsConfig.TOPIC, "is required: the topic records go to"));
    }
    if (s.request().method().equals("GET") && !s.request().body().isEmpty()) {
      problems.add(new Problem(RequestConfig.BODY, "is sent only with http.method=POST"));
    }
  }

  private static void cursor(EndpointSettings s, List<Problem> problems) {
    CursorConfig.Values c = s.cursor();
    if (c.hasTiebreak() && !c.hasCursor()) {
      problems.add(
          new Problem(CursorConfig.TIEBREAK_POINTER, "orders equal cursors: set cursor.pointer"));
    }
    if (!c.param().isEmpty() && uses(s, "${cursor}")) {
      problems.add(
          new Problem(
              CursorConfig.PARAM,
              "http.url or http.body already carries ${cursor}; leave cursor.param empty"));
    }
  }

  private static void pagination(EndpointSettings s, List<Problem> problems) {
    PaginationConfig.Values p = s.pagination();
    if ((p.mode() == Mode.NEXT_URL || p.mode() == Mode.TOKEN) && p.nextPointer().isEmpty()) {
      problems.add(
          new Problem(
              PaginationConfig.NEXT_POINTER,
              "is required by pagination.mode=" + p.mode().name().toLowerCase()));
    }
    if (p.mode() == Mode.TOKEN && p.tokenParam().isEmpty() && !uses(s, "${token}")) {
      problems.add(missingCarrier(PaginationConfig.TOKEN_PARAM, "${token}"));
    }
    if (p.mode() == Mode.PAGE && p.pageParam().isEmpty() && !uses(s, "${page}")) {
      problems.add(missingCarrier(PaginationConfig.PAGE_PARAM, "${page}"));
    }
    if (p.mode() == Mode.OFFSET && p.offsetParam().isEmpty() && !uses(s, "${offset}")) {
      problems.add(missingCarrier(PaginationConfig.OFFSET_PARAM, "${offset}"));
    }
  }

  private static Problem missingCarrier(String key, String placeholder) {
    return new Problem(
        key, "is empty and neither http.url nor http.body holds " + placeholder + ": set one");
  }

  private static void auth(
      PollAuthConfig.Values a, boolean secretsStorable, List<Problem> problems) {
    if (a.type() == AuthType.BASIC && a.username().isEmpty()) {
      problems.add(new Problem(PollAuthConfig.BASIC_USERNAME, "is required by auth.type=basic"));
    }
    if (a.type() == AuthType.BEARER && a.bearerToken().isEmpty()) {
      problems.add(new Problem(PollAuthConfig.BEARER_TOKEN, "is required by auth.type=bearer"));
    }
    if (a.type() == AuthType.OAUTH2) {
      oauth2(a.oauth2(), secretsStorable, problems);
    }
  }

  private static void oauth2(
      PollAuthConfig.OAuth2 o, boolean secretsStorable, List<Problem> problems) {
    if (o.tokenUrl().isEmpty()) {
      problems.add(new Problem(PollAuthConfig.OAUTH2_TOKEN_URL, "is required by auth.type=oauth2"));
    }
    if (o.clientId().isEmpty()) {
      problems.add(new Problem(PollAuthConfig.OAUTH2_CLIENT_ID, "is required by auth.type=oauth2"));
    }
    if (o.grant() == Grant.REFRESH_TOKEN && o.refreshToken().isEmpty()) {
      problems.add(
          new Problem(
              PollAuthConfig.OAUTH2_REFRESH_TOKEN,
              "is required by auth.oauth2.grant=refresh_token (the token of the first run)"));
    }
    if (o.grant() == Grant.REFRESH_TOKEN && !secretsStorable) {
      problems.add(
          new Problem(
              PollAuthConfig.OAUTH2_GRANT,
              "refresh_token keeps rotated refresh tokens as encrypted state-store secrets: set "
                  + SecretCodec.ENV_STATE_KEY
                  + " (32 random bytes in base64, `openssl rand -base64 32`) on every worker, or"
                  + " store.encryption=off to keep them in plain text"));
    }
  }

  private static boolean uses(EndpointSettings s, String placeholder) {
    return s.request().url().contains(placeholder) || s.request().body().contains(placeholder);
  }
}
