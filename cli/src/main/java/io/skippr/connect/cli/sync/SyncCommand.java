package io.skippr.connect.cli.sync;

import io.skippr.connect.cli.discover.DiscoveryException;
import io.skippr.connect.cli.discover.PluginJars;
import io.skippr.connect.cli.discover.SkipprYaml;
import io.skippr.connect.common.MdcThreadFactory;
import io.skippr.connect.common.ProcessEnvironment;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code skippr sync}: runs a pipeline of skippr.yml without Kafka, straight into the lake. */
@Command(
    name = "sync",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the pipeline's source connector in this process (Debezium's embedded engine) and"
          + " writes its records, through the pipeline's transforms, straight into the lake: the"
          + " same files, commit protocol and log as the lake sink under Connect, without Kafka.",
      "Exactly once: each unit's commit records the source offset of its last record; a run"
          + " resumes the source there, so after a crash the next run leaves every source record"
          + " in the lake once. Source offsets reach the state store only after their unit is"
          + " committed. One run per pipeline: a lease in the state store.",
      "The HTTP push ingest source is refused: it needs Kafka as its write-ahead log.",
      "Exit code 0 when everything read is in the lake; 1 on any failure or rejected record,"
          + " with a one-line reason."
    })
public final class SyncCommand implements Callable<Integer> {
  @Option(
      names = "--pipeline",
      required = true,
      paramLabel = "NAME",
      description = "The pipeline, as named in skippr.yml.")
  String pipeline;

  @Option(
      names = "--once",
      description =
          "Drain until the source is caught up (sync.idle.ms without a record, or the source"
              + " says it read everything), commit everything and exit. Without it the run goes"
              + " on until SIGTERM, then stops cleanly.")
  boolean once;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "The pipelines file (default: $SKIPPR_CONFIG, else ./skippr.yml).")
  Path config;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description =
          "Where local state lives (the RocksDB state store's default directory): sets DATA_DIR.")
  Path dataDir;

  @Option(
      names = "--plugin-dir",
      paramLabel = "DIR",
      description =
          "plugin.path entry holding further connectors and transforms, such as Debezium's"
              + " (default: distribution/target/plugin).")
  Path pluginDir;

  @Option(
      names = "--output",
      defaultValue = "progress",
      paramLabel = "progress|json|text",
      description =
          "progress: one line updated on a terminal; json: one JSON event per line (sync_start,"
              + " unit_committed, record_rejected, sync_complete, sync_failed); text: a line per"
              + " event.")
  SyncOutput.Format output;

  @Option(
      names = "--wait",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "When another run holds the pipeline: wait for it (default), or with --no-wait refuse,"
              + " naming the holder.")
  boolean wait;

  @Option(names = "--log", description = "Show the connectors' log lines.")
  boolean log;

  private final Map<String, String> env;
  private final Path workingDir;
  private final PrintStream out;
  private final PrintStream err;

  public SyncCommand() {
    this(ProcessEnvironment.variables(), Path.of("").toAbsolutePath(), System.out, System.err);
  }

  /** With another environment, working directory and streams than the process's (tests). */
  SyncCommand(Map<String, String> env, Path workingDir, PrintStream out, PrintStream err) {
    this.env = env;
    this.workingDir = workingDir;
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() {
    SyncOutput events = new SyncOutput(output, out, err, pipeline);
    if (!log) {
      Configurator.setLevel("io.skippr.connect", Level.WARN);
      Configurator.setLevel("io.debezium", Level.WARN);
    }
    if (dataDir != null) {
      ProcessEnvironment.set("DATA_DIR", dataDir.toAbsolutePath().toString());
    }
    SyncPipeline resolved;
    try {
      resolved =
          SyncPipeline.of(
              SkipprYaml.read(SkipprYaml.locate(config, env, workingDir)).pipeline(pipeline));
    } catch (DiscoveryException | SyncException e) {
      events.failed(e.getMessage());
      return 1;
    }
    SyncRun run = new SyncRun(resolved, once, wait, PluginJars.resolve(pluginDir), events);
    Duration grace = resolved.settings().shutdownTimeout().plusSeconds(5);
    Thread hook =
        new MdcThreadFactory("skippr-sync-shutdown")
            .newThread(
                () -> {
                  try {
                    run.stop(grace);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      return run.run();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // Shutting down already: the hook is running and waits for this run.
      }
    }
  }
}
