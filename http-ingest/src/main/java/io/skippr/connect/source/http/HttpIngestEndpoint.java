package io.skippr.connect.source.http;

import io.skippr.connect.source.common.encoding.ValueEncoder;
import io.skippr.connect.source.http.catalog.IngestCatalog;
import io.skippr.connect.source.http.catalog.NameKind;
import io.skippr.connect.source.http.config.HttpIngestConfig;
import io.skippr.connect.source.http.convert.PointRecords;
import io.skippr.connect.source.http.convert.RecordBound;
import io.skippr.connect.source.http.convert.RejectionRecords;
import io.skippr.connect.source.http.convert.StreamRecords;
import io.skippr.connect.source.http.delivery.Admission;
import io.skippr.connect.source.http.delivery.CommitTracker;
import io.skippr.connect.source.http.delivery.RecordHandoff;
import io.skippr.connect.source.http.delivery.TrackedRecord;
import io.skippr.connect.source.http.metrics.TaskMetrics;
import io.skippr.connect.source.http.server.ByteBudget;
import io.skippr.connect.source.lineprotocol.records.TopicGate;
import java.net.BindException;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.source.TransactionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task's endpoint, wired: catalog, admission, the queue to {@code poll()}, the service that
 * turns requests into records, the Jetty server and the metrics. In a task with a transaction
 * context ({@code transaction.boundary=connector} on an exactly-once worker) each poll's batch of
 * whole requests is one transaction, and a request is answered after Connect's {@code commit()}
 * that follows it; otherwise after Kafka acknowledged its rows.
 */
final class HttpIngestEndpoint implements IngestEndpoint {

  private static final Logger LOG = LoggerFactory.getLogger(HttpIngestEndpoint.class);

  /** Most records one poll returns (whole requests: the first may have more). */
  static final int MAX_BATCH = 10_000;

  /** The task number Connect's task configs carry (see the connector's taskConfigs). */
  static final String TASK_INDEX = "task.index";

  private static final long POLL_WAIT_MS = 100;

  private final Lifecycle lifecycle = new Lifecycle();
  private final TransactionContext transactions;
  private final CommitTracker commits = new CommitTracker();
  private final IngestCatalog catalog;
  private final RecordHandoff handoff;
  private final IngestService service;
  private final TaskMetrics metrics;
  private final IngestServer server;
  private volatile int port;

  private HttpIngestEndpoint(
      HttpIngestConfig.Values config,
      SourceTaskContext context,
      IngestCatalog catalog,
      TaskMetrics metrics) {
    this.catalog = catalog;
    this.metrics = metrics;
    this.transactions = transactionContext(context);
    Admission admission =
        new Admission(config.admission().maxInflightRows(), config.admission().maxInflightBytes());
    this.handoff = new RecordHandoff(config.admission().maxInflightRows());
    metrics.gauge("rows-in-flight", "Rows received, not yet acknowledged", admission::inflightRows);
    metrics.gauge(
        "bytes-in-flight", "Bytes received, not yet acknowledged", admission::inflightBytes);
    boolean fixed = !config.topics().fixedTopic().isEmpty();
    TopicGate measurements = fixed ? TopicGate.OPEN : catalog.claims().gate(NameKind.MEASUREMENT);
    TopicGate streams = fixed ? TopicGate.OPEN : catalog.claims().gate(NameKind.STREAM);
    ValueEncoder encoder = ValueEncoder.of(config.encoding());
    RecordBound bound = new RecordBound(config.limits().recordMaxBytes());
    IngestService.Converters converters =
        new IngestService.Converters(
            new PointRecords(config.topics(), measurements, catalog.columns(), encoder),
            new StreamRecords(config.topics(), streams, catalog.streams(), encoder),
            new RejectionRecords(config.topics().rejectionTopic(), bound, encoder),
            bound);
    this.service =
        new IngestService(
            config.limits(),
            config.admission(),
            converters,
            admission,
            handoff,
            transactions != null,
            metrics);
    this.server = new IngestServer(config, service, lifecycle, metrics, budget(admission));
    metrics.gauge(
        "uploads-in-progress", "Request bodies being received", server::uploadsInProgress);
  }

  /**
   * Starts the endpoint of a task: listening and accepting once this returns.
   *
   * @param instance orders this worker's instances of the task (see {@link TaskMetrics})
   */
  static HttpIngestEndpoint start(
      Map<String, String> props, SourceTaskContext context, long instance) {
    HttpIngestConfig.Values config = HttpIngestConfig.from(props);
    IngestCatalog catalog =
        IngestCatalog.open(
            config.catalog(), config.limits().topicsMax(), config.topics().allowed(), props);
    int task = Integer.parseInt(props.getOrDefault(TASK_INDEX, "0"));
    TaskMetrics metrics =
        TaskMetrics.of(context, props.getOrDefault("name", "http-ingest"), task, instance);
    HttpIngestEndpoint endpoint;
    try {
      endpoint = new HttpIngestEndpoint(config, context, catalog, metrics);
    } catch (RuntimeException e) {
      metrics.close();
      catalog.close();
      throw e;
    }
    try {
      endpoint.server.start();
    } catch (Exception e) {
      endpoint.close();
      throw listenFailure(config, e);
    }
    endpoint.port = endpoint.server.port();
    endpoint.lifecycle.accept();
    LOG.info(
        "HTTP ingest accepting writes on port {}; {}; metrics: {}",
        endpoint.port(),
        endpoint.transactions != null
            ? "each poll's requests are one transaction, answered after its commit"
            : "requests answered once Kafka acknowledged their rows (no transaction context: on an"
                + " exactly-once worker set transaction.boundary=connector)",
        endpoint.metrics.describe());
    return endpoint;
  }

  private static ConnectException listenFailure(HttpIngestConfig.Values config, Exception e) {
    String where = config.server().bindAddress() + ":" + config.server().port();
    boolean taken = false;
    for (Throwable t = e; t != null; t = t.getCause()) {
      taken |= t instanceof BindException;
    }
    if (taken) {
      return new ConnectException(
          "Cannot listen on "
              + where
              + ": the port is already in use on this worker. Each task of the HTTP ingest"
              + " connector serves server.port on the worker it runs on, so two tasks on one"
              + " worker clash: keep tasks.max at or below the number of workers (restart this"
              + " task once it can have a worker of its own), or free the port.",
          e);
    }
    return new ConnectException("Cannot start HTTP ingest on " + where + ": " + e, e);
  }

  private static TransactionContext transactionContext(SourceTaskContext context) {
    try {
      return context == null ? null : context.transactionContext();
    } catch (LinkageError | UnsupportedOperationException e) {
      return null; // a worker that predates exactly-once source support (KIP-618)
    }
  }

  private static ByteBudget budget(Admission admission) {
    return new ByteBudget() {
      @Override
      public boolean tryReserve(long bytes) {
        return admission.tryAcquire(0, bytes);
      }

      @Override
      public void release(long bytes) {
        admission.release(0, bytes);
      }
    };
  }

  @Override
  public List<SourceRecord> poll() throws InterruptedException {
    checkServing();
    RecordHandoff.Drained drained = handoff.drain(MAX_BATCH, POLL_WAIT_MS);
    if (drained == null) {
      return null;
    }
    if (transactions != null) {
      commits.polled(drained.tickets());
      transactions.commitTransaction(); // this batch of whole requests is one transaction
    }
    return drained.records();
  }

  /**
   * Fails the task when the endpoint can no longer serve although the task did not stop it, so
   * Connect reports the task FAILED with the reason instead of RUNNING with nobody listening.
   */
  private void checkServing() {
    if (lifecycle.accepting()) {
      String fault = server.fault();
      if (fault != null && lifecycle.fail(fault)) {
        LOG.error("HTTP ingest stopped serving on port {}: {}; failing the task", port, fault);
      }
    }
    if (lifecycle.failed()) {
      throw new ConnectException(
          "HTTP ingest on port "
              + port
              + " stopped serving: "
              + lifecycle.failure()
              + ". Restart the task once the cause is fixed.");
    }
  }

  @Override
  public void acknowledged(SourceRecord record) {
    if (record instanceof TrackedRecord tracked) {
      tracked.ticket().acknowledged();
    }
  }

  @Override
  public void committed() {
    if (transactions != null) {
      commits.committed();
    }
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public void close() {
    if (!lifecycle.stop()) {
      return;
    }
    handoff.close();
    service.abandonAll();
    server.close();
    catalog.close();
    metrics.close();
    lifecycle.stopped();
  }
}
