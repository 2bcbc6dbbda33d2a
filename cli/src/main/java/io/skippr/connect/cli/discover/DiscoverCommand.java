package io.skippr.connect.cli.discover;

import io.skippr.connect.common.Messages;
import io.skippr.connect.common.ProcessEnvironment;
import io.skippr.connect.schema.ContractStorage;
import java.io.PrintWriter;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code skippr discover}: samples a pipeline's source, infers and saves its contracts. */
@Command(
    name = "discover",
    mixinStandardHelpOptions = true,
    description = {
      "Samples the pipeline's source in this process (no offsets committed, nothing written to"
          + " Kafka or the lake), infers the complete schema of each namespace and saves the"
          + " contracts as {tenant}/{workspace}/{pipeline}/metadata.json under the data"
          + " directory, or in the bucket named by SKIPPR_S3_BUCKET.",
      "Exit code 0 on success, 1 on a problem with the configuration or the source."
    })
public final class DiscoverCommand extends PipelineCommand {
  /** Environment variable naming namespace fields when skippr.yml does not. */
  public static final String NAMESPACE_FIELDS_ENV = "TRANSFORM_NAMESPACE_FIELDS";

  @Option(
      names = "--sample",
      defaultValue = "1000",
      paramLabel = "N",
      description = "Most records to sample (default: ${DEFAULT-VALUE}).")
  int sample;

  @Option(
      names = "--timeout",
      defaultValue = "30",
      paramLabel = "S",
      description = "Most seconds to sample for (default: ${DEFAULT-VALUE}).")
  double timeoutSeconds;

  @Option(
      names = "--plugin-dir",
      paramLabel = "DIR",
      description =
          "plugin.path entry holding the connectors (default: distribution/target/plugin).")
  Path pluginDir;

  @Option(names = "--log", description = "Show the source connector's log lines.")
  boolean log;

  public DiscoverCommand() {
    this(ProcessEnvironment.variables(), Path.of("").toAbsolutePath());
  }

  /** With another environment and working directory than the process's (tests). */
  public DiscoverCommand(Map<String, String> env, Path workingDir) {
    super(env, workingDir);
  }

  @Override
  void run(PrintWriter out) {
    if (sample < 1 || !(timeoutSeconds > 0)) {
      throw new DiscoveryException("--sample must be at least 1 and --timeout above 0");
    }
    if (!log) {
      Configurator.setLevel("io.skippr.connect", Level.WARN);
    }
    PipelineSpec pipeline = withEnvironmentNamespaces(options.spec(env, workingDir));
    try (ContractStorage store = options.store(env, workingDir)) {
      try {
        store.checkReachable(pipeline.id()); // before sampling, which may take long
      } catch (RuntimeException e) {
        throw new DiscoveryException("cannot save contracts: " + Messages.oneLine(e), e);
      }
      long started = System.nanoTime();
      Discovery.Result result = sample(pipeline);
      try {
        store.save(pipeline.id(), result.contracts());
      } catch (RuntimeException e) {
        throw new DiscoveryException("cannot save contracts: " + Messages.oneLine(e), e);
      }
      print(out, result, store.location(pipeline.id()), System.nanoTime() - started);
    }
  }

  private Discovery.Result sample(PipelineSpec pipeline) {
    Duration timeout = Duration.ofMillis(Math.round(timeoutSeconds * 1000));
    Path plugins = PluginJars.resolve(pluginDir);
    try (URLClassLoader loader = PluginJars.open(plugins, getClass().getClassLoader());
        Namespacer namespacer = Namespacer.byFields(pipeline, loader)) {
      List<SourceRecord> records =
          new SourceSampler(loader, plugins).sample(pipeline, sample, timeout);
      if (records.isEmpty()) {
        throw new DiscoveryException(
            "source "
                + pipeline.sourceClass()
                + " yielded no records within "
                + timeout.toSeconds()
                + " s (is data flowing? try a longer --timeout)");
      }
      return Discovery.infer(pipeline.id(), records, namespacer);
    } catch (java.io.IOException e) {
      throw new DiscoveryException("cannot close the plugin class loader: " + e.getMessage(), e);
    }
  }

  private PipelineSpec withEnvironmentNamespaces(PipelineSpec pipeline) {
    String fields = env.get(NAMESPACE_FIELDS_ENV);
    if (!pipeline.namespaceFields().isEmpty() || fields == null || fields.isBlank()) {
      return pipeline;
    }
    return new PipelineSpec(
        pipeline.id(),
        pipeline.sourceClass(),
        pipeline.sourceConfig(),
        Arrays.stream(fields.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList(),
        pipeline.namespaceSeparator(),
        pipeline.transforms(),
        pipeline.lakeConfig(),
        pipeline.syncConfig());
  }

  private void print(PrintWriter out, Discovery.Result result, String saved, long nanos) {
    if (options.output == PipelineOptions.Output.json) {
      out.print(ContractText.json(result.contracts()));
      return;
    }
    out.printf(
        "pipeline %s: sampled %d record%s in %.1f s%n",
        result.id(), result.sampled(), result.sampled() == 1 ? "" : "s", nanos / 1e9);
    if (result.skipped() > 0) {
      out.printf("  skipped %d (%s)%n", result.skipped(), String.join("; ", result.notes()));
    }
    int count = result.namespaces().size();
    out.printf("saved %d contract%s to %s%n%n", count, count == 1 ? "" : "s", saved);
    Map<String, Integer> records = new LinkedHashMap<>();
    result.namespaces().forEach(n -> records.put(n.contract().namespace(), n.records()));
    out.print(ContractText.text(result.contracts(), records));
  }
}
