package io.skippr.connect.source.http.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.CompoundStat;
import org.apache.kafka.common.metrics.MeasurableStat;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Max;
import org.apache.kafka.common.metrics.stats.Percentile;
import org.apache.kafka.common.metrics.stats.Percentiles;
import org.apache.kafka.common.metrics.stats.Rate;

/**
 * The sensors of one published task instance (see {@link TaskMetrics} for the names). A metric that
 * cannot be registered (its name is held by something else) is left out with a warning: metrics
 * never fail the task.
 */
final class IngestSensors {

  /** Every status the endpoint answers with; each has its own {@code requests-total}. */
  static final List<Integer> STATUSES =
      List.of(200, 204, 400, 401, 404, 405, 408, 413, 429, 500, 503);

  /** Longest latency the percentile histogram tells apart (longer ones count as this). */
  private static final double LATENCY_HISTOGRAM_MAX_MS = 60_000;

  private static final int LATENCY_HISTOGRAM_BYTES = 4_000;

  private final MetricRegistry registry;
  private final List<Sensor> sensors = new ArrayList<>();
  private final Sensor[] byClass = new Sensor[6];
  private final Map<Integer, Sensor> byStatus = new TreeMap<>();
  private final Sensor accepted;
  private final Sensor rejected;
  private final Sensor bytesIn;
  private final Sensor latency;

  IngestSensors(MetricRegistry registry) {
    this.registry = registry;
    for (int statusClass = 2; statusClass <= 5; statusClass++) {
      String name = "requests-" + statusClass + "xx";
      byClass[statusClass] = sum(name, "Requests answered with a " + statusClass + "xx status");
    }
    for (int status : STATUSES) {
      Sensor sensor = sensor("requests-" + status);
      add(
          sensor,
          registry.name(
              "requests-total",
              "Requests answered with this status, in total",
              Map.of("status", Integer.toString(status))),
          new CumulativeSum());
      byStatus.put(status, sensor);
    }
    this.accepted = sum("rows-accepted", "Rows of answered writes that are durable in Kafka");
    this.rejected = sum("rows-rejected", "Rows rejected (each also on the rejection topic)");
    this.bytesIn = sum("bytes-in", "Request body bytes received, as sent");
    this.latency = sensor("ack-latency");
    add(
        latency,
        name("ack-latency-avg", "Average ms from a write's arrival to its 204"),
        new Avg());
    add(
        latency,
        name("ack-latency-max", "Longest ms from a write's arrival to its 204"),
        new Max());
    add(
        latency,
        new Percentiles(
            LATENCY_HISTOGRAM_BYTES,
            LATENCY_HISTOGRAM_MAX_MS,
            Percentiles.BucketSizing.LINEAR,
            new Percentile(
                name("ack-latency-p99", "99th percentile of ms from a write's arrival to its 204"),
                99)));
  }

  void answered(int status, boolean write, long receivedNanos) {
    int statusClass = status / 100;
    if (statusClass >= 2 && statusClass <= 5) {
      byClass[statusClass].record();
    }
    Sensor exact = byStatus.get(status);
    if (exact != null) {
      exact.record();
    }
    if (write && status == 204) {
      latency.record(
          (System.nanoTime() - receivedNanos) / (double) TimeUnit.MILLISECONDS.toNanos(1));
    }
  }

  void rows(long acceptedRows, long rejectedRows) {
    if (acceptedRows > 0) {
      accepted.record(acceptedRows);
    }
    if (rejectedRows > 0) {
      rejected.record(rejectedRows);
    }
  }

  void bytesIn(long bytes) {
    bytesIn.record(bytes);
  }

  /** Removes every sensor, and with them their metrics, from the registry. */
  void remove() {
    for (Sensor sensor : sensors) {
      try {
        registry.removeSensor(sensor);
      } catch (RuntimeException e) {
        // the worker closed the task's plugin metrics already
      }
    }
  }

  private Sensor sum(String name, String what) {
    Sensor sensor = sensor(name);
    add(sensor, name(name + "-total", what + ", in total"), new CumulativeSum());
    add(sensor, name(name + "-rate", what + ", per second"), new Rate());
    return sensor;
  }

  private Sensor sensor(String name) {
    Sensor sensor = registry.sensor(name);
    sensors.add(sensor);
    return sensor;
  }

  private MetricName name(String name, String description) {
    return registry.name(name, description, Map.of());
  }

  private static void add(Sensor sensor, MetricName name, MeasurableStat stat) {
    try {
      sensor.add(name, stat);
    } catch (RuntimeException e) {
      TaskMetrics.notRegistered(name, e);
    }
  }

  private static void add(Sensor sensor, CompoundStat stat) {
    try {
      sensor.add(stat);
    } catch (RuntimeException e) {
      TaskMetrics.notRegistered(stat.stats().get(0).name(), e);
    }
  }
}
