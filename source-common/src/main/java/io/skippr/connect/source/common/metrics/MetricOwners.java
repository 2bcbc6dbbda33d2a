package io.skippr.connect.source.http.metrics;

import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which instance of each task publishes its metrics on this worker: the newest. Connect starts a
 * task again (a restart, a rebalance) after waiting {@code task.shutdown.graceful.timeout.ms} for
 * the previous instance, which may still be stopping and still hold the metric names. The new
 * instance then removes the previous one's metrics and publishes its own; the previous one, when it
 * finally stops, removes nothing. One lock orders publishing and removal.
 */
final class MetricOwners {

  private static final Logger LOG = LoggerFactory.getLogger(MetricOwners.class);
  private static final Map<String, TaskMetrics> OWNERS = new HashMap<>();

  private MetricOwners() {}

  /** Publishes {@code candidate} unless a newer instance of its task publishes already. */
  static synchronized void claim(TaskMetrics candidate) {
    TaskMetrics owner = OWNERS.get(candidate.task());
    if (owner != null && owner.instance() > candidate.instance()) {
      LOG.info(
          "HTTP ingest task {}: a newer instance of this task runs on this worker; this one's"
              + " metrics are not published",
          candidate.task());
      return;
    }
    if (owner != null) {
      LOG.info(
          "HTTP ingest task {}: the previous instance of this task has not stopped yet; its"
              + " metrics make way for this one's",
          candidate.task());
      owner.unpublish();
    }
    OWNERS.put(candidate.task(), candidate);
    try {
      candidate.publish();
    } catch (RuntimeException e) {
      LOG.warn("HTTP ingest task {}: metrics not published: {}", candidate.task(), e.toString());
    }
  }

  /** Adds a gauge to {@code metrics}, published if it is its task's owner. */
  static synchronized void addGauge(TaskMetrics metrics, TaskMetrics.Gauge gauge) {
    metrics.add(gauge);
  }

  /** Removes the metrics of {@code metrics} if it is its task's owner. */
  static synchronized void release(TaskMetrics metrics) {
    if (OWNERS.remove(metrics.task(), metrics)) {
      metrics.unpublish();
    }
  }
}
