package io.skippr.connect.source.poll;

import io.skippr.connect.common.ProjectVersion;
import io.skippr.connect.common.SourceCatchUp;
import io.skippr.connect.source.common.metrics.MetricOwners;
import io.skippr.connect.source.poll.config.EndpointSettings;
import io.skippr.connect.source.poll.config.HttpPollConfig;
import io.skippr.connect.source.poll.engine.PollEngine;
import io.skippr.connect.source.poll.metrics.PluginMetricsExport;
import io.skippr.connect.source.poll.metrics.PollMetrics;
import io.skippr.connect.source.poll.state.PollState;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStores;
import io.skippr.connect.state.api.StoreEnvironment;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.apache.kafka.connect.source.TransactionContext;

/**
 * Thin lifecycle around {@link PollEngine}: each {@link #poll} returns one page of one endpoint.
 * With {@code transaction.boundary=connector} that page is one transaction (records and their
 * offset commit together); with the default {@code poll} boundary a poll is one page anyway. {@link
 * #commitRecord} and {@link #commit} feed the state-store mirror, which copies only what Kafka has
 * committed. A poll without records tells {@link SourceCatchUp} whether every endpoint read all
 * there is.
 */
public final class HttpPollSourceTask extends SourceTask {

  private final Function<Map<String, String>, StateStore> storeOpener;
  private final StoreEnvironment environment;

  /** Orders this worker's instances of the task: the newest publishes the metrics. */
  private final long instance = MetricOwners.nextInstance();

  private PollMetrics metrics;
  private PollState state;
  private PollEngine engine;
  private String connector;

  public HttpPollSourceTask() {
    this(StateStores::open, StoreEnvironment.system());
  }

  /** With another store and environment than the process's (tests). */
  HttpPollSourceTask(
      Function<Map<String, String>, StateStore> storeOpener, StoreEnvironment environment) {
    this.storeOpener = storeOpener;
    this.environment = environment;
  }

  @Override
  public String version() {
    return ProjectVersion.get();
  }

  @Override
  public void start(Map<String, String> props) {
    HttpPollConfig.Values all = HttpPollConfig.from(props, environment);
    List<EndpointSettings> mine = assigned(all, props.get(HttpPollSourceConnector.TASK_ENDPOINTS));
    HttpPollConfig.Values config =
        new HttpPollConfig.Values(
            mine, all.mirror(), all.scope(), all.connector(), all.sampleMode());
    connector = all.connector();
    metrics = new PollMetrics(PluginMetricsExport.of(context, instance), System::currentTimeMillis);
    try {
      state = PollState.open(config, props, storeOpener);
      engine = PollEngine.start(mine, state, context.offsetStorageReader(), metrics);
    } catch (RuntimeException e) {
      stop();
      throw e;
    }
  }

  private static List<EndpointSettings> assigned(HttpPollConfig.Values config, String names) {
    if (names == null || names.isBlank()) {
      return config.endpoints();
    }
    List<String> wanted = Arrays.asList(names.split(","));
    return config.endpoints().stream().filter(e -> wanted.contains(e.name())).toList();
  }

  @Override
  public List<SourceRecord> poll() throws InterruptedException {
    List<SourceRecord> records = engine.poll();
    if (records == null || records.isEmpty()) {
      SourceCatchUp.report(connector, this, engine.caughtUp());
    }
    if (records != null && !records.isEmpty()) {
      TransactionContext transaction = context.transactionContext();
      if (transaction != null) {
        transaction.commitTransaction(records.get(records.size() - 1));
      }
    }
    return records;
  }

  @Override
  public void commitRecord(SourceRecord record, RecordMetadata metadata) {
    state.track(record);
  }

  @Override
  public void commit() {
    if (state != null) {
      state.mirrorCommitted(context.offsetStorageReader());
    }
  }

  @Override
  public void stop() {
    if (engine != null) {
      engine.stop();
    }
    if (metrics != null) {
      metrics.close();
    }
    if (state != null) {
      state.closeAfterFinalCommit();
    }
    SourceCatchUp.forget(connector, this);
  }

  /** The counters of this task (tests). */
  PollMetrics metrics() {
    return metrics;
  }

  PollEngine engine() {
    return engine;
  }
}
