package io.skippr.connect.source.poll.engine;

import io.skippr.connect.source.poll.auth.Authenticator;
import io.skippr.connect.source.poll.config.EndpointSettings;
import io.skippr.connect.source.poll.http.Excerpt;
import io.skippr.connect.source.poll.http.HttpExchanger;
import io.skippr.connect.source.poll.http.PageRequests;
import io.skippr.connect.source.poll.http.Redaction;
import io.skippr.connect.source.poll.http.RequestFailure;
import io.skippr.connect.source.poll.http.Response;
import io.skippr.connect.source.poll.http.RetryAfter;
import io.skippr.connect.source.poll.metrics.PollMetrics;
import io.skippr.connect.source.poll.page.PageParser;
import io.skippr.connect.source.poll.page.ParsedPage;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/** One attempt at one page: build the request, add credentials, send, check status and body. */
public final class PageFetcher {

  private final EndpointSettings settings;
  private final PageRequests requests;
  private final PageParser parser;
  private final Authenticator auth;
  private final HttpExchanger http;
  private final PollMetrics metrics;

  public PageFetcher(
      EndpointSettings settings, Authenticator auth, HttpExchanger http, PollMetrics metrics) {
    this.settings = settings;
    this.requests = new PageRequests(settings);
    this.parser = new PageParser(settings.records().recordsPointer());
    this.auth = auth;
    this.http = http;
    this.metrics = metrics;
  }

  /**
   * @param passCursor the cursor sent in this pass (null: none)
   * @param next the page reference (null: the pass's first page)
   */
  public ParsedPage fetch(String passCursor, String next)
      throws RequestFailure, InterruptedException {
    HttpRequest.Builder builder;
    try {
      builder = requests.request(passCursor, next);
    } catch (IllegalArgumentException e) {
      // Only a page reference set from outside (an offset changed through the REST API) can
      // be no URL: the ones pages name are checked before they are stored.
      throw RequestFailure.permanent(
          0, "the page reference " + next + " cannot be requested: " + e.getMessage());
    }
    auth.authorize(builder);
    HttpRequest request = builder.build();
    Response response;
    try {
      response =
          http.send(request, settings.request().timeoutMs(), settings.request().maxResponseBytes());
    } catch (RequestFailure e) {
      metrics.request(settings.name(), e.status());
      throw e;
    }
    metrics.request(settings.name(), response.status());
    if (!response.ok()) {
      throw statusFailure(request, response);
    }
    return parser.parse(response);
  }

  private static RequestFailure statusFailure(HttpRequest request, Response response) {
    int status = response.status();
    Duration retryAfter =
        RetryAfter.parse(response.headers().firstValue("Retry-After").orElse(null), Instant.now())
            .orElse(null);
    String message =
        request.method()
            + " "
            + Redaction.url(request.uri())
            + " answered "
            + status
            + bodyExcerpt(response.body());
    RequestFailure.Kind kind = RequestFailure.kindOf(status);
    if (status == 403 && retryAfter != null) {
      kind = RequestFailure.Kind.TRANSIENT; // a rate limit that says when to come back (GitHub)
    }
    return new RequestFailure(kind, status, retryAfter, message);
  }

  private static String bodyExcerpt(byte[] body) {
    if (body.length == 0) {
      return "";
    }
    return ": "
        + Excerpt.of(
            new String(
                body, 0, Math.min(body.length, 4 * Excerpt.MAX_CHARS), StandardCharsets.UTF_8));
  }
}
