package io.skippr.connect.cli.discover;

import io.skippr.connect.common.MdcThreadFactory;
import io.skippr.connect.common.Messages;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.source.SourceConnector;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

/**
 * Runs a pipeline's source connector and one task in this process in sample mode: the task sees no
 * stored offsets, nothing is committed, and the records it returns go nowhere but into the sample.
 * Polls until the sample is full or the timeout passes, then stops task and connector.
 */
public final class SourceSampler {
  /**
   * Set to {@code true} in the sampled connector's config: a source that keeps offsets elsewhere
   * too (such as a state-store mirror) starts from its beginning and writes none of them.
   */
  public static final String SAMPLE_MODE = "skippr.discover.sample";

  private static final Duration STOP_GRACE = Duration.ofSeconds(10);

  private final ClassLoader loader;
  private final String pluginDir;

  /**
   * Samples with connector classes from {@code loader} (see {@link PluginJars}), which reads {@code
   * pluginDir}.
   */
  public SourceSampler(ClassLoader loader, Path pluginDir) {
    this.loader = loader;
    this.pluginDir = pluginDir.toString();
  }

  /**
   * Up to {@code max} records from the pipeline's source, in the order the task returned them.
   *
   * @throws DiscoveryException when the class is unusable, the config is rejected or the source
   *     fails
   */
  public List<SourceRecord> sample(PipelineSpec spec, int max, Duration timeout) {
    Thread thread = Thread.currentThread();
    ClassLoader saved = thread.getContextClassLoader();
    thread.setContextClassLoader(loader);
    try (SampleContexts contexts = new SampleContexts(spec.name())) {
      Map<String, String> config = connectorConfig(spec);
      SourceConnector connector = instantiate(spec.sourceClass());
      checkConfig(connector, config, spec.sourceClass());
      connector.initialize(contexts.connector());
      guard("source connector failed to start", () -> start(connector, config));
      try {
        List<Map<String, String>> tasks = guard("source connector", () -> connector.taskConfigs(1));
        if (tasks == null || tasks.isEmpty()) {
          throw new DiscoveryException(spec.sourceClass() + " created no task");
        }
        SourceTask task = newTask(connector);
        task.initialize(contexts.task(tasks.get(0)));
        guard("source task failed to start", () -> start(task, tasks.get(0)));
        List<SourceRecord> records = poll(task, max, timeout);
        if (contexts.raised() != null) {
          throw new DiscoveryException(
              "source connector raised an error: " + Messages.oneLine(contexts.raised()));
        }
        return records;
      } finally {
        connector.stop();
      }
    } finally {
      thread.setContextClassLoader(saved);
    }
  }

  private static Map<String, String> connectorConfig(PipelineSpec spec) {
    Map<String, String> config = new HashMap<>(spec.sourceConfig());
    config.putIfAbsent("name", spec.name());
    config.putIfAbsent("connector.class", spec.sourceClass());
    config.putIfAbsent("tasks.max", "1");
    config.putIfAbsent(SAMPLE_MODE, "true");
    // Sampling writes nothing: HTTP ingest keeps the names and types it sees in memory.
    config.putIfAbsent("catalog.store", "memory");
    return config;
  }

  private SourceConnector instantiate(String className) {
    Class<?> type;
    try {
      type = Class.forName(className, true, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new DiscoveryException(
          "source class "
              + className
              + " not found in the plugin directory "
              + pluginDir
              + " (set --plugin-dir or -D"
              + PluginJars.PLUGIN_DIR_PROPERTY
              + ")");
    }
    if (!SourceConnector.class.isAssignableFrom(type)) {
      throw new DiscoveryException(className + " is not a SourceConnector");
    }
    try {
      return (SourceConnector) type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new DiscoveryException("cannot create " + className + ": " + Messages.oneLine(e), e);
    }
  }

  private static void checkConfig(
      SourceConnector connector, Map<String, String> config, String className) {
    Config validated =
        guard("source config rejected by " + className, () -> connector.validate(config));
    List<String> errors = new ArrayList<>();
    for (ConfigValue value : validated.configValues()) {
      for (String message : value.errorMessages()) {
        errors.add(value.name() + ": " + message);
      }
    }
    if (!errors.isEmpty()) {
      throw new DiscoveryException(
          "source config rejected by " + className + ": " + String.join("; ", errors));
    }
  }

  private static SourceTask newTask(SourceConnector connector) {
    Class<?> taskClass = connector.taskClass();
    if (taskClass == null || !SourceTask.class.isAssignableFrom(taskClass)) {
      throw new DiscoveryException(connector.getClass().getName() + " has no SourceTask class");
    }
    try {
      return (SourceTask) taskClass.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new DiscoveryException(
          "cannot create " + taskClass.getName() + ": " + Messages.oneLine(e), e);
    }
  }

  private List<SourceRecord> poll(SourceTask task, int max, Duration timeout) {
    List<SourceRecord> records = new ArrayList<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicBoolean stopping = new AtomicBoolean();
    CountDownLatch done = new CountDownLatch(1);
    Thread poller =
        new MdcThreadFactory("skippr-discover-poll")
            .newThread(
                () -> {
                  Thread.currentThread().setContextClassLoader(loader);
                  try {
                    fill(task, records, max, stopping);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  } catch (Throwable t) { // the source's own failure, reported to the user
                    failure.set(t);
                  } finally {
                    done.countDown();
                  }
                });
    poller.start();
    awaitQuietly(done, timeout);
    stopping.set(true);
    task.stop();
    if (!awaitQuietly(done, STOP_GRACE)) {
      poller.interrupt();
      awaitQuietly(done, STOP_GRACE);
    }
    if (failure.get() != null) {
      throw new DiscoveryException(
          "source task failed: " + Messages.oneLine(failure.get()), failure.get());
    }
    synchronized (records) {
      return List.copyOf(records);
    }
  }

  private static void fill(
      SourceTask task, List<SourceRecord> records, int max, AtomicBoolean stopping)
      throws InterruptedException {
    while (!stopping.get() && !Thread.currentThread().isInterrupted()) {
      List<SourceRecord> batch = task.poll();
      synchronized (records) {
        if (batch != null) {
          for (SourceRecord record : batch) {
            if (records.size() < max) {
              records.add(record);
            }
          }
        }
        if (records.size() >= max) {
          return;
        }
      }
    }
  }

  private static boolean awaitQuietly(CountDownLatch latch, Duration timeout) {
    try {
      return latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static void start(SourceConnector connector, Map<String, String> config) {
    connector.start(config);
  }

  private static void start(SourceTask task, Map<String, String> config) {
    task.start(config);
  }

  private static void guard(String what, Runnable action) {
    guard(
        what,
        () -> {
          action.run();
          return null;
        });
  }

  private static <T> T guard(String what, Supplier<T> action) {
    try {
      return action.get();
    } catch (DiscoveryException e) {
      throw e;
    } catch (RuntimeException | LinkageError e) {
      throw new DiscoveryException(what + ": " + Messages.oneLine(e), e);
    }
  }
}
