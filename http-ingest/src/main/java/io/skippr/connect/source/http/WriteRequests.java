package io.skippr.connect.source.http;

import io.skippr.connect.source.http.catalog.CatalogException;
import io.skippr.connect.source.http.config.LimitsConfig;
import io.skippr.connect.source.http.server.BodyReader;
import io.skippr.connect.source.http.server.ParsePool;
import io.skippr.connect.source.http.server.RequestBody;
import io.skippr.connect.source.http.server.RequestTooLarge;
import io.skippr.connect.source.http.server.UploadRefused;
import io.skippr.connect.source.lineprotocol.Precision;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Received write requests waiting for, and being parsed on, {@code server.threads} threads. The
 * queue is bounded by {@code server.queue.size}: a request that finds it full is answered 503 with
 * Retry-After at once, never left waiting without bound.
 */
final class WriteRequests {

  private static final Logger LOG = LoggerFactory.getLogger(WriteRequests.class);
  private static final String JSON_PREFIX = "/ingest/";

  /** A write whose body has arrived. */
  record Write(
      IngestServer.Exchange exchange,
      String path,
      Map<String, String> params,
      String encoding,
      byte[] body,
      int length,
      BodyReader reader) {}

  private final IngestService service;
  private final LimitsConfig.Values limits;
  private final int queueSize;
  private final ParsePool pool;
  private final Consumer<Throwable> fatal;

  /**
   * @param fatal told of an error a request thread cannot go on from (not a bad request)
   */
  WriteRequests(
      IngestService service,
      LimitsConfig.Values limits,
      int threads,
      int queueSize,
      Consumer<Throwable> fatal) {
    this.service = service;
    this.limits = limits;
    this.queueSize = queueSize;
    this.pool = new ParsePool(threads, queueSize);
    this.fatal = fatal;
  }

  /** True once the threads stopped. */
  boolean stopped() {
    return pool.stopped();
  }

  boolean saturated() {
    return service.saturated();
  }

  WriteResult tooManyRequests() {
    return service.tooManyRequests();
  }

  /** Queues the write, or answers 503 when the queue is full. */
  void submit(Write write) {
    if (!pool.submit(new Job(write))) {
      write.reader().releaseBudget();
      write
          .exchange()
          .answer(
              Responses.error(
                  503,
                  "unavailable",
                  pool.stopped()
                      ? "the connector is stopping; retry the request"
                      : queueSize + " requests are already waiting to be parsed; retry later"),
              false);
    }
  }

  /** Answers the queued writes with the refusal and stops the threads. */
  void close(UploadRefused refusal) {
    List<Runnable> queued = pool.stop();
    for (Runnable r : queued) {
      if (r instanceof Job job) {
        job.write.reader().releaseBudget();
        job.write
            .exchange()
            .answer(Responses.error(refusal.status(), "unavailable", refusal.message()), false);
      }
    }
  }

  private final class Job implements Runnable {
    private final Write write;

    Job(Write write) {
      this.write = write;
    }

    @Override
    public void run() {
      IngestServer.Exchange ex = write.exchange();
      try {
        CompletableFuture<WriteResult> result = parse();
        write.reader().releaseBudget();
        result.whenComplete(
            (answer, failure) -> {
              if (failure != null) {
                LOG.error("Unexpected failure answering {}", write.path(), failure);
                ex.answer(
                    Responses.error(500, "internal error", "unexpected failure; retry"), false);
              } else {
                ex.answer(answer, false);
              }
            });
      } catch (RequestTooLarge e) {
        ex.answer(Responses.error(413, "request too large", e.getMessage()), false);
      } catch (IllegalArgumentException e) {
        ex.answer(Responses.error(400, "invalid", e.getMessage()), false);
      } catch (IOException e) {
        ex.answer(
            Responses.error(400, "invalid", "could not read the request body: " + e.getMessage()),
            false);
      } catch (CatalogException e) {
        LOG.warn("HTTP ingest catalog unavailable: {}", e.getMessage());
        ex.answer(
            Responses.error(
                503,
                "unavailable",
                "the catalog of topic names and field types is unavailable; retry the request"),
            false);
      } catch (RuntimeException e) {
        LOG.error("Unexpected failure handling {}", write.path(), e);
        ex.answer(Responses.error(500, "internal error", "unexpected failure; retry"), false);
      } catch (StackOverflowError e) {
        ex.answer(Responses.error(400, "invalid", "the body is nested too deeply"), false);
      } catch (Error e) {
        LOG.error("Request thread failed handling {}; the task stops serving", write.path(), e);
        ex.answer(Responses.error(500, "internal error", "the connector failed; retry"), false);
        fatal.accept(e);
      } finally {
        write.reader().releaseBudget();
      }
    }

    private CompletableFuture<WriteResult> parse() throws IOException {
      RequestBody body =
          RequestBody.open(
              new ByteArrayInputStream(write.body(), 0, write.length()),
              null,
              write.encoding(),
              limits);
      String path = write.path();
      if (path.startsWith(JSON_PREFIX)) {
        return service.writeJson(body, path, path.substring(JSON_PREFIX.length()));
      }
      Map<String, String> params = write.params();
      boolean v3 = path.equals("/api/v3/write_lp");
      String precisionText = params.getOrDefault("precision", v3 ? "auto" : "ns");
      Optional<Precision> precision = Precision.parse(precisionText);
      if (precision.isEmpty()) {
        return CompletableFuture.completedFuture(
            Responses.error(400, "invalid", "invalid precision '" + precisionText + "'"));
      }
      String database = path.equals("/api/v2/write") ? params.get("bucket") : params.get("db");
      boolean acceptPartial = !v3 || !"false".equalsIgnoreCase(params.get("accept_partial"));
      return service.writeLineProtocol(body, path, precision.get(), database, acceptPartial);
    }
  }
}
