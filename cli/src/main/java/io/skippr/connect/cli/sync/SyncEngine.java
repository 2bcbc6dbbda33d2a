package io.skippr.connect.cli.sync;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import io.skippr.connect.common.MdcThreadFactory;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.source.SourceConnector;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The source connector of a run without Kafka, in Debezium's embedded engine: its tasks run
 * in-process, their records pass the pipeline's transforms and go to {@link Handler#deliver}.
 * Offsets are read from the state store and never written by the engine ({@link
 * ReadOnlyOffsetStore}): the run writes them once the lake committed their records.
 */
final class SyncEngine implements AutoCloseable {
  /** What the engine reports to the run. */
  interface Handler {
    /**
     * Records of one task, in order, each with the acknowledgement to give once it is in the lake
     * (never before: the engine lets the task commit what is acknowledged).
     */
    void deliver(List<SourceRecord> records, List<SourceAck> acks);

    /** A task started polling. */
    void taskStarted();

    /** The engine stopped: by {@link #close}, or because the source failed. */
    void stopped(boolean success, String message, Throwable error);
  }

  private final DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;
  private final ExecutorService runner;
  private final AtomicBoolean closed = new AtomicBoolean();

  private SyncEngine(DebeziumEngine<RecordChangeEvent<SourceRecord>> engine, ClassLoader loader) {
    this.engine = engine;
    ThreadFactory threads = new MdcThreadFactory("skippr-sync-engine");
    this.runner =
        Executors.newSingleThreadExecutor(
            task -> {
              Thread thread = threads.newThread(task);
              // Threads inherit it: connectors that look up services through the context
              // loader (Debezium's do) find the plugin directory's classes from any thread.
              thread.setContextClassLoader(loader);
              return thread;
            });
  }

  /**
   * Checks the source's configuration as Connect would, then starts the engine.
   *
   * @param loader where the connector and the transforms are loaded from
   * @throws SyncException when the connector is not found or its configuration is invalid
   */
  static SyncEngine start(SyncPipeline pipeline, ClassLoader loader, Handler handler) {
    Map<String, String> source = pipeline.sourceProps();
    validate(pipeline, loader, source);
    Properties props = new Properties();
    props.putAll(source);
    props.put("offset.storage", ReadOnlyOffsetStore.class.getName());
    // The engine's flushes write nothing (see ReadOnlyOffsetStore); they let tasks see commits.
    props.put("offset.flush.interval.ms", "1000");
    props.put("record.processing.threads", "1");
    DebeziumEngine<RecordChangeEvent<SourceRecord>> engine =
        DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
            .using(props)
            .using(loader)
            .using(
                new DebeziumEngine.ConnectorCallback() {
                  @Override
                  public void taskStarted() {
                    handler.taskStarted();
                  }
                })
            .using(handler::stopped)
            .notifying(
                (List<RecordChangeEvent<SourceRecord>> events,
                    DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer) -> {
                  SourceAck.Batches batch = () -> finished(committer);
                  List<SourceRecord> records = new ArrayList<>(events.size());
                  List<SourceAck> acks = new ArrayList<>(events.size());
                  for (RecordChangeEvent<SourceRecord> event : events) {
                    records.add(event.record());
                    acks.add(new EventAck<>(committer, event, batch));
                  }
                  handler.deliver(records, acks);
                })
            .build();
    SyncEngine started = new SyncEngine(engine, loader);
    started.runner.execute(engine);
    return started;
  }

  /** Marks one event processed, from the thread that committed its unit. */
  private record EventAck<R>(
      DebeziumEngine.RecordCommitter<R> committer, R event, SourceAck.Batches batches)
      implements SourceAck {
    @Override
    public void processed() {
      try {
        committer.markProcessed(event);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static <R> void finished(DebeziumEngine.RecordCommitter<R> committer) {
    try {
      committer.markBatchFinished();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void validate(
      SyncPipeline pipeline, ClassLoader loader, Map<String, String> source) {
    String at = "pipelines." + pipeline.name() + ".source";
    SourceConnector connector;
    ClassLoader previous = Thread.currentThread().getContextClassLoader();
    Thread.currentThread().setContextClassLoader(loader);
    try {
      Class<?> type = Class.forName(pipeline.sourceClass(), true, loader);
      if (!SourceConnector.class.isAssignableFrom(type)) {
        throw new SyncException(
            at + ".class " + pipeline.sourceClass() + " is not a SourceConnector");
      }
      connector = (SourceConnector) type.getDeclaredConstructor().newInstance();
      Config checked = connector.validate(source);
      for (ConfigValue value : checked.configValues()) {
        if (!value.errorMessages().isEmpty()) {
          throw new SyncException(
              at + ".config: " + value.name() + ": " + value.errorMessages().get(0));
        }
      }
    } catch (ClassNotFoundException e) {
      throw new SyncException(
          at
              + ".class "
              + pipeline.sourceClass()
              + " is neither built in nor in the plugin directory (--plugin-dir)",
          e);
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new SyncException(
          at + ".class " + pipeline.sourceClass() + " cannot be created: " + e, e);
    } finally {
      Thread.currentThread().setContextClassLoader(previous);
    }
  }

  /**
   * Stops the tasks (their last batch is delivered or dropped: what was not delivered is read again
   * by the next run) and waits for the engine to end.
   *
   * @return whether it ended within {@code timeout}
   */
  boolean stop(Duration timeout) throws InterruptedException {
    if (closed.compareAndSet(false, true)) {
      try {
        engine.close();
      } catch (IOException e) {
        throw new SyncException("the source did not stop: " + e.getMessage(), e);
      }
    }
    runner.shutdown();
    return runner.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      try {
        engine.close();
      } catch (IOException | RuntimeException e) {
        // Closing after a failure: the failure is what the run reports.
      }
    }
    runner.shutdownNow();
  }
}
