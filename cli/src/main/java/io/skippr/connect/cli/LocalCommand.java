package io.skippr.connect.cli;

import io.skippr.connect.cli.demo.LocalDemo;
import io.skippr.connect.common.ProcessEnvironment;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code skippr local}: a single-node Kafka broker and Connect worker with the plugin loaded. */
@Command(
    name = "local",
    mixinStandardHelpOptions = true,
    description = {
      "Starts, in this process, a single-node KRaft Kafka broker and a Kafka Connect distributed"
          + " worker with the Skippr Connect plugin loaded.",
      "Runs until SIGINT or SIGTERM, then stops cleanly (exit code 0).",
      "Data persists under the data directory: a second start resumes the same cluster and topics."
    })
public final class LocalCommand implements Callable<Integer> {

  @Option(
      names = "--data-dir",
      description =
          "Where Kafka, Connect and the state store keep their data, and the default of"
              + " everything else that follows DATA_DIR (default: $DATA_DIR, else ./data). The"
              + " worker runs as if DATA_DIR were set to it. One stack per data directory.")
  Path dataDir;

  @Option(
      names = "--kafka-port",
      defaultValue = "9092",
      description = "Broker port on 127.0.0.1 (default: ${DEFAULT-VALUE}).")
  int kafkaPort;

  @Option(
      names = "--controller-port",
      defaultValue = "9093",
      description = "KRaft controller port on 127.0.0.1 (default: ${DEFAULT-VALUE}).")
  int controllerPort;

  @Option(
      names = "--rest-port",
      defaultValue = "8083",
      description = "Connect REST port on 127.0.0.1 (default: ${DEFAULT-VALUE}).")
  int restPort;

  @Option(
      names = "--plugin-dir",
      description =
          "plugin.path entry holding the built plugin (default: distribution/target/plugin).")
  Path pluginDir;

  @Option(
      names = "--no-worker",
      description = "Run only the Kafka broker, without a Connect worker.")
  boolean noWorker;

  @Option(
      names = "--bootstrap-servers",
      description =
          "Run only a Connect worker (group skippr-local) that joins the Kafka cluster at these"
              + " bootstrap servers; no broker is started.")
  String bootstrapServers;

  @Option(
      names = "--worker-property",
      paramLabel = "KEY=VALUE",
      description =
          "A Connect worker setting that overrides the default (repeatable), e.g."
              + " --worker-property session.timeout.ms=6000.")
  Map<String, String> workerProperties = new LinkedHashMap<>();

  @Option(
      names = "--demo",
      description =
          "Once the worker is ready, register an HTTP ingest source and a lake sink (lake under"
              + " <data-dir>/lake), push a few thousand generated rows through HTTP, wait until"
              + " the lake committed them and print what DuckDB reads back; then keep running.")
  boolean demo;

  @Option(
      names = "--ingest-port",
      defaultValue = "8086",
      description = "Port of the demo's HTTP ingest on 127.0.0.1 (default: ${DEFAULT-VALUE}).")
  int ingestPort;

  @Override
  public Integer call() {
    if (noWorker && bootstrapServers != null) {
      System.err.println("skippr local: --no-worker and --bootstrap-servers exclude each other");
      return 2;
    }
    if (noWorker && demo) {
      System.err.println("skippr local: --demo needs the Connect worker (drop --no-worker)");
      return 2;
    }
    LocalStack.Settings settings =
        new LocalStack.Settings(
            resolveDataDir(),
            kafkaPort,
            controllerPort,
            restPort,
            resolvePluginDir(),
            !noWorker,
            bootstrapServers,
            Map.copyOf(workerProperties),
            demo ? new LocalDemo.Options(ingestPort) : null);
    try {
      return new LocalStack(settings).runUntilSignalled();
    } catch (StartupException e) {
      System.err.println("skippr local: " + e.getMessage());
      return 2;
    }
  }

  private Path resolveDataDir() {
    if (dataDir != null) {
      return dataDir.toAbsolutePath();
    }
    return Paths.get(ProcessEnvironment.variable(LocalStack.DATA_DIR_ENV).orElse("data"))
        .toAbsolutePath();
  }

  private Path resolvePluginDir() {
    if (pluginDir != null) {
      return pluginDir.toAbsolutePath();
    }
    String configured = System.getProperty("skippr.plugin.dir");
    return Paths.get(configured != null ? configured : "distribution/target/plugin")
        .toAbsolutePath();
  }
}
