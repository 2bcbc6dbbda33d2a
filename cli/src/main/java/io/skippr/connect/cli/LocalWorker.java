package io.skippr.connect.cli;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A Connect distributed worker whose REST API listens on 127.0.0.1. Connect runs from a {@link
 * WorkerClassLoader}, so the worker finds the project's connectors only in the plugin directory, as
 * a user's worker does.
 */
final class LocalWorker implements AutoCloseable {
  private static final String CONNECT_DISTRIBUTED =
      "org.apache.kafka.connect.cli.ConnectDistributed";

  private final Map<String, String> props = new HashMap<>();
  private WorkerClassLoader loader;
  private Object connect;

  LocalWorker(
      String bootstrapServers, int restPort, Path pluginDir, Map<String, String> overrides) {
    props.put("bootstrap.servers", bootstrapServers);
    props.put("group.id", "skippr-local");
    props.put("listeners", "http://127.0.0.1:" + restPort);
    props.put("plugin.path", pluginDir.toString());
    props.put("plugin.discovery", "service_load");
    props.put("config.storage.topic", "skippr-local-configs");
    props.put("offset.storage.topic", "skippr-local-offsets");
    props.put("status.storage.topic", "skippr-local-status");
    props.put("config.storage.replication.factor", "1");
    props.put("offset.storage.replication.factor", "1");
    props.put("status.storage.replication.factor", "1");
    props.put("key.converter", "io.skippr.connect.json.StreamingJsonConverter");
    props.put("value.converter", "io.skippr.connect.json.StreamingJsonConverter");
    props.put("exactly.once.source.support", "enabled");
    // Sources write in transactions: every sink on this worker reads committed records only.
    props.put("consumer.isolation.level", "read_committed");
    props.put("offset.flush.interval.ms", "5000");
    // Connect's file config provider lets example configs reference local files.
    props.put("config.providers", "file,env");
    props.put(
        "config.providers.file.class",
        "org.apache.kafka.common.config.provider.FileConfigProvider");
    props.put(
        "config.providers.env.class",
        "org.apache.kafka.common.config.provider.EnvVarConfigProvider");
    props.putAll(overrides);
  }

  void start() {
    loader = WorkerClassLoader.create();
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    // Threads Connect starts now inherit the worker's loader as their context loader.
    thread.setContextClassLoader(loader);
    try {
      Class<?> distributed = Class.forName(CONNECT_DISTRIBUTED, true, loader);
      Object cli = distributed.getConstructor(String[].class).newInstance((Object) new String[0]);
      connect = distributed.getMethod("startConnect", Map.class).invoke(cli, props);
    } catch (InvocationTargetException e) {
      throw rethrown(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot start Connect from the CLI's class path: " + e, e);
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  @Override
  public void close() {
    if (connect != null) {
      try {
        connect.getClass().getMethod("stop").invoke(connect);
        connect.getClass().getMethod("awaitStop").invoke(connect);
      } catch (InvocationTargetException e) {
        throw rethrown(e.getCause());
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot stop Connect: " + e, e);
      } finally {
        connect = null;
      }
    }
    if (loader != null) {
      try {
        loader.close();
      } catch (IOException e) {
        // The worker has stopped; a jar that does not close leaks one file handle until exit.
      }
      loader = null;
    }
  }

  private static RuntimeException rethrown(Throwable cause) {
    if (cause instanceof RuntimeException runtime) {
      return runtime;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return new IllegalStateException(String.valueOf(cause), cause);
  }
}
