package io.skippr.connect.source.poll.engine;

import io.skippr.connect.source.poll.auth.Authenticator;
import io.skippr.connect.source.poll.config.EndpointSettings;
import io.skippr.connect.source.poll.config.PaginationConfig;
import io.skippr.connect.source.poll.cursor.Position;
import io.skippr.connect.source.poll.http.Backoff;
import io.skippr.connect.source.poll.http.RateLimiter;
import io.skippr.connect.source.poll.http.Redaction;
import io.skippr.connect.source.poll.http.RequestFailure;
import io.skippr.connect.source.poll.metrics.PollMetrics;
import io.skippr.connect.source.poll.page.Pagination;
import io.skippr.connect.source.poll.page.ParsedPage;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One endpoint's passes as a state machine. Each {@link #step} makes one request when the endpoint
 * is due and returns that page's records:
 *
 * <pre>
 *   PASS_DUE --(interval passed)--> request first page
 *   PAGE_DUE --(rate limit allows)--> request next page
 *   RETRY_DUE --(backoff / Retry-After passed)--> request the same page again
 *   any request: page with a next page -> PAGE_DUE; last page -> PASS_DUE (+ poll.interval.ms);
 *                a 2xx body that is no page, or a next page that cannot be followed ->
 *                the page rejected (its records stand), PASS_DUE (+ poll.interval.ms);
 *                transient failure -> RETRY_DUE, or FAILED after retry.max.attempts;
 *                401 -> RETRY_DUE at once with a new token (once), then FAILED;
 *                permanent failure -> FAILED (every later step throws the same error)
 * </pre>
 */
public final class EndpointPoller {

  private static final Logger LOG = LoggerFactory.getLogger(EndpointPoller.class);

  /** Where the endpoint is between requests. */
  public enum Phase {
    PASS_DUE,
    PAGE_DUE,
    RETRY_DUE,
    FAILED
  }

  private final EndpointSettings settings;
  private final PageFetcher fetcher;
  private final Pagination pagination;
  private final PageRecords pageRecords;
  private final Authenticator auth;
  private final Backoff backoff;
  private final RateLimiter limiter;
  private final PollMetrics metrics;
  private final LongSupplier nanoClock;
  private final long intervalNanos;

  private Phase phase;
  private long dueAt;
  private int failures;
  private boolean tokenRenewed;
  private Position position;
  private ConnectException failure;

  /** Starts at {@code start}: the pass it describes goes on at once, or the next one begins. */
  public EndpointPoller(
      EndpointSettings settings,
      Position start,
      EndpointParts parts,
      PollMetrics metrics,
      LongSupplier nanoClock) {
    this.settings = settings;
    this.fetcher = parts.fetcher();
    this.pagination = parts.pagination();
    this.pageRecords = parts.pageRecords();
    this.auth = parts.auth();
    this.backoff = parts.backoff();
    this.limiter = new RateLimiter(settings.pacing().ratePerSecond());
    this.metrics = metrics;
    this.nanoClock = nanoClock;
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(settings.pacing().pollIntervalMs());
    this.position = start;
    this.phase = start.passDone() ? Phase.PASS_DUE : Phase.PAGE_DUE;
    this.dueAt = nanoClock.getAsLong();
  }

  public String name() {
    return settings.name();
  }

  public Phase phase() {
    return phase;
  }

  public Position position() {
    return position;
  }

  /** When the next request may start ({@link System#nanoTime()} scale). */
  public long dueAt() {
    long due = phase == Phase.FAILED ? dueAt : limiter.nextStart(dueAt);
    return Math.max(due, dueAt);
  }

  /**
   * Makes the due request and returns the records of its page (none after a failure or for a page
   * of known records).
   *
   * @throws ConnectException when the endpoint failed for good
   */
  public List<SourceRecord> step() throws InterruptedException {
    if (phase == Phase.FAILED) {
      throw failure;
    }
    if (phase == Phase.PASS_DUE) {
      position = position.nextPass(settings.cursor().initial());
      phase = Phase.PAGE_DUE;
    }
    long now = nanoClock.getAsLong();
    limiter.started(now);
    ParsedPage page;
    try {
      page = fetcher.fetch(position.passCursor(), position.next());
    } catch (RequestFailure f) {
      onFailure(f, nanoClock.getAsLong()); // waits count from the answer, as Retry-After means
      return List.of();
    }
    failures = 0;
    tokenRenewed = false;
    return onPage(page, nanoClock.getAsLong());
  }

  private List<SourceRecord> onPage(ParsedPage page, long now) {
    PageRecords.Result result;
    Optional<String> next = Optional.empty();
    PageRecords.PageProblem problem = null;
    try {
      if (page.usable()) {
        try {
          next = pagination.next(position.next(), page);
        } catch (Pagination.Unfollowable e) {
          problem = new PageRecords.PageProblem(e.getMessage(), e.reference());
        }
      } else {
        problem =
            new PageRecords.PageProblem(page.problem(), PageRecords.text(page.response().body()));
      }
      result = pageRecords.build(page, position, next, problem);
    } catch (RuntimeException e) {
      throw fail(
          "cannot read a page of " + page.response().uri().getHost() + ": " + e.getMessage());
    }
    if (problem != null) {
      LOG.warn(
          "Endpoint {}: page {} of pass {} ({}) rejected, its pass ends there: {}",
          settings.name(),
          position.page(),
          position.pass(),
          Redaction.url(page.response().uri()),
          problem.reason());
    }
    metrics.page(settings.name(), result.delivered(), result.skipped(), result.rejected());
    position = result.position();
    if (next.isPresent()) {
      phase = Phase.PAGE_DUE;
      dueAt = now;
    } else {
      phase = Phase.PASS_DUE;
      dueAt = caughtUp(page, result) ? now + intervalNanos : now;
      metrics.passCompleted(settings.name());
      LOG.debug("Endpoint {}: pass {} done at {}", settings.name(), position.pass(), position);
    }
    return result.records();
  }

  /**
   * Whether the pass that just ended read everything there was. Only a one-request pass (mode none)
   * can end while more is waiting: a full page of new records means the next pass starts at once.
   */
  private boolean caughtUp(ParsedPage page, PageRecords.Result result) {
    return settings.pagination().mode() != PaginationConfig.Mode.NONE
        || result.delivered() == 0
        || page.records().size() < settings.pagination().limit();
  }

  private void onFailure(RequestFailure f, long now) {
    switch (f.kind()) {
      case UNAUTHORIZED -> {
        if (tokenRenewed || !auth.canRefresh()) {
          throw fail(f.getMessage() + (tokenRenewed ? " (again, with a new access token)" : ""));
        }
        tokenRenewed = true;
        auth.invalidate();
        metrics.retry(settings.name());
        retryAt(now);
      }
      case TRANSIENT -> {
        failures++;
        if (failures >= settings.pacing().maxAttempts()) {
          throw fail(
              f.getMessage() + " (gave up after " + failures + " attempts, retry.max.attempts)");
        }
        metrics.retry(settings.name());
        Duration wait = f.retryAfter().orElseGet(() -> backoff.delay(failures));
        LOG.warn(
            "Endpoint {}: {}; attempt {} of {} in {} ms",
            settings.name(),
            f.getMessage(),
            failures + 1,
            settings.pacing().maxAttempts(),
            wait.toMillis());
        retryAt(now + wait.toNanos());
      }
      case BUSY -> {
        LOG.debug("Endpoint {}: {}", settings.name(), f.getMessage());
        retryAt(now + f.retryAfter().orElse(Duration.ofMillis(200)).toNanos());
      }
      default -> throw fail(f.getMessage());
    }
  }

  private void retryAt(long at) {
    phase = Phase.RETRY_DUE;
    dueAt = at;
  }

  private ConnectException fail(String message) {
    phase = Phase.FAILED;
    failure = new ConnectException("HTTP poll endpoint " + settings.name() + ": " + message);
    return failure;
  }
}
