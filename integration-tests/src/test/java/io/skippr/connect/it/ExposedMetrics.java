package io.skippr.connect.it;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Prometheus metrics the JMX exporter rules of {@code docker/prometheus/jmx-exporter.yml} make
 * of Skippr's metrics (README "Metrics", docs/http-ingest.md, docs/http-poll.md,
 * docs/file-source.md) and of Connect's, with their labels: what docs/deploy.md documents and the
 * dashboard may query. Written out here, not derived from the rules.
 */
final class ExposedMetrics {
  private static final List<String> TASK = List.of("connector", "task");
  private static final List<String> TP = List.of("connector", "task", "topic", "partition");
  private static final List<String> ENDPOINT = List.of("connector", "task", "endpoint");

  static final Map<String, List<String>> LAKE_SINK =
      metrics(
          TASK,
          "skippr_units_committed_total",
          "skippr_units_committed_rate",
          "skippr_files_committed_total",
          "skippr_rows_committed_total",
          "skippr_rows_committed_rate",
          "skippr_bytes_committed_total",
          "skippr_bytes_committed_rate",
          "skippr_commit_latency_avg",
          "skippr_commit_latency_max",
          "skippr_buffered_bytes",
          "skippr_memory_pauses_total",
          "skippr_merges_committed_total",
          "skippr_merge_input_files_total",
          "skippr_merge_output_files_total",
          "skippr_merge_input_bytes_total",
          "skippr_merge_output_bytes_total",
          "skippr_merges_abandoned_total",
          "skippr_files_expired_total",
          "skippr_retired_files_deleted_total",
          "skippr_maintenance_failures_total",
          "skippr_retired_files");

  static final Map<String, List<String>> LAKE_SINK_PER_TP =
      metrics(TP, "skippr_committed_offset", "skippr_lag_records");

  static final Map<String, List<String>> HTTP_INGEST =
      metrics(
          TASK,
          "skippr_requests_2xx_total",
          "skippr_requests_2xx_rate",
          "skippr_requests_3xx_total",
          "skippr_requests_4xx_total",
          "skippr_requests_4xx_rate",
          "skippr_requests_5xx_total",
          "skippr_requests_5xx_rate",
          "skippr_rows_accepted_total",
          "skippr_rows_accepted_rate",
          "skippr_rows_rejected_total",
          "skippr_rows_rejected_rate",
          "skippr_bytes_in_total",
          "skippr_bytes_in_rate",
          "skippr_rows_in_flight",
          "skippr_bytes_in_flight",
          "skippr_uploads_in_progress",
          "skippr_ack_latency_avg",
          "skippr_ack_latency_max",
          "skippr_ack_latency_p99");

  /** HTTP ingest's requests by status: no endpoint label, unlike HTTP poll's. */
  static final Map<String, List<String>> HTTP_INGEST_BY_STATUS =
      metrics(List.of("connector", "task", "status"), "skippr_requests_total");

  static final Map<String, List<String>> HTTP_POLL =
      metrics(
          ENDPOINT,
          "skippr_retries_total",
          "skippr_throttled_total",
          "skippr_token_refreshes_total",
          "skippr_records_total",
          "skippr_records_skipped_total",
          "skippr_records_rejected_total",
          "skippr_pages_total",
          "skippr_passes_total",
          "skippr_last_pass_age_ms");

  static final Map<String, List<String>> HTTP_POLL_BY_STATUS =
      metrics(List.of("connector", "task", "endpoint", "status"), "skippr_requests_total");

  static final Map<String, List<String>> FILE_SOURCE =
      metrics(
          TASK,
          "skippr_files_open",
          "skippr_files_completed_total",
          "skippr_files_shrunk_total",
          "skippr_bytes_read_total",
          "skippr_bytes_read_rate",
          "skippr_records_read_total",
          "skippr_records_read_rate",
          "skippr_rejected_records_total",
          "skippr_rejected_records_rate",
          "skippr_lag_bytes");

  /** Connect's own, per task and per connector, and the sink consumers' lag per TP. */
  static final Map<String, List<String>> CONNECT_SINK_TASK =
      metrics(
          TASK,
          "kafka_connect_connector_task_status",
          "kafka_connect_sink_task_metrics_sink_record_read_rate",
          "kafka_connect_task_error_metrics_total_record_errors",
          "kafka_connect_task_error_metrics_deadletterqueue_produce_requests");

  static final Map<String, List<String>> CONNECT_SOURCE_TASK =
      metrics(
          TASK,
          "kafka_connect_connector_task_status",
          "kafka_connect_source_task_metrics_source_record_write_rate");

  static final Map<String, List<String>> CONNECT_WORKER =
      metrics(
          List.of("connector"),
          "kafka_connect_connector_status",
          "kafka_connect_worker_connector_running_task_count",
          "kafka_connect_worker_connector_failed_task_count");

  static final Map<String, List<String>> CONSUMER_LAG =
      metrics(List.of("client_id", "topic", "partition"), "kafka_consumer_records_lag");

  private ExposedMetrics() {}

  /** Every metric above. */
  static Map<String, List<String>> all() {
    Map<String, List<String>> all = new LinkedHashMap<>();
    for (Map<String, List<String>> group :
        List.of(
            LAKE_SINK,
            LAKE_SINK_PER_TP,
            HTTP_INGEST,
            HTTP_INGEST_BY_STATUS,
            HTTP_POLL,
            HTTP_POLL_BY_STATUS,
            FILE_SOURCE,
            CONNECT_SINK_TASK,
            CONNECT_SOURCE_TASK,
            CONNECT_WORKER,
            CONSUMER_LAG)) {
      all.putAll(group);
    }
    return all;
  }

  private static Map<String, List<String>> metrics(List<String> labels, String... names) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (String name : names) {
      out.put(name, labels);
    }
    return out;
  }
}
