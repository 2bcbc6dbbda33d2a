package io.skippr.connect.cli.sync;

import io.skippr.connect.cli.discover.DiscoveryException;
import io.skippr.connect.cli.discover.SkipprYaml;
import io.skippr.connect.cli.lease.HeldLease;
import io.skippr.connect.common.Messages;
import io.skippr.connect.common.ProcessEnvironment;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code skippr state}: a pipeline's resume state in the state store and the lake. */
@Command(
    name = "state",
    mixinStandardHelpOptions = true,
    description = {
      "Shows, exports and imports a pipeline's resume state: source offsets, sink progress,"
          + " leases and the names of secrets (never their values).",
      "export and import use the body of Connect's PATCH /connectors/{name}/offsets (KIP-875),"
          + " so a pipeline moves between Connect and skippr sync in both directions.",
      "Offsets are shown as the next sync resumes them: where the lake's log recorded a later"
          + " source offset than the store holds, the log's."
    },
    subcommands = {StateCommand.Show.class, StateCommand.Export.class, StateCommand.Import.class})
public final class StateCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "missing subcommand: show, export or import");
  }

  /** The options every subcommand takes. */
  static final class Options {
    @Option(
        names = "--pipeline",
        required = true,
        paramLabel = "NAME",
        description = "The pipeline, as named in skippr.yml.")
    String pipeline;

    @Option(
        names = "--config",
        paramLabel = "FILE",
        description = "The pipelines file (default: $SKIPPR_CONFIG, else ./skippr.yml).")
    Path config;

    @Option(
        names = "--data-dir",
        paramLabel = "DIR",
        description = "Where local state lives (the RocksDB store's default directory).")
    Path dataDir;

    SyncPipeline resolve() {
      Configurator.setLevel("io.skippr.connect", Level.WARN);
      if (dataDir != null) {
        ProcessEnvironment.set("DATA_DIR", dataDir.toAbsolutePath().toString());
      }
      Path file =
          SkipprYaml.locate(config, ProcessEnvironment.variables(), Path.of("").toAbsolutePath());
      return SyncPipeline.of(SkipprYaml.read(file).pipeline(pipeline));
    }
  }

  /** Runs a subcommand's work with the pipeline's state; problems become one line and exit 1. */
  abstract static class Subcommand implements Callable<Integer> {
    @Mixin Options options;
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    abstract void run(SyncState state, PrintWriter out) throws IOException, InterruptedException;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      try (SyncState state = SyncState.open(options.resolve(), false, held -> {})) {
        run(state, out);
        return 0;
      } catch (SyncException | DiscoveryException e) {
        err.println("skippr state " + spec.name() + ": " + e.getMessage());
        return 1;
      } catch (IOException | RuntimeException e) {
        err.println("skippr state " + spec.name() + ": " + Messages.oneLine(e));
        return 1;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return 1;
      } finally {
        out.flush();
        err.flush();
      }
    }
  }

  /** {@code skippr state show}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Prints source offsets, sink progress, leases and secret names.")
  static final class Show extends Subcommand {
    @Override
    void run(SyncState state, PrintWriter out) throws IOException {
      new StateReport(state).print(out);
    }
  }

  /** {@code skippr state export}. */
  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description =
          "Prints the source offsets as the body of PATCH /connectors/{name}/offsets, e.g. for"
              + " curl -X PATCH -H 'Content-Type: application/json' --data @offsets.json.")
  static final class Export extends Subcommand {
    @Override
    void run(SyncState state, PrintWriter out) throws IOException {
      out.println(ConnectOffsets.write(state.sourceOffsets()));
    }
  }

  /** {@code skippr state import}. */
  @Command(
      name = "import",
      mixinStandardHelpOptions = true,
      description = {
        "Loads source offsets from FILE (- for stdin), in the body format of PATCH"
            + " /connectors/{name}/offsets (as GET /connectors/{name}/offsets prints them): the"
            + " next sync resumes there. A null offset resets its partition to the start.",
        "Refused while a sync of the pipeline runs."
      })
  static final class Import extends Subcommand {
    @Parameters(index = "0", paramLabel = "FILE", description = "The offsets, or - for stdin.")
    String file;

    @Override
    void run(SyncState state, PrintWriter out) throws IOException, InterruptedException {
      Map<Map<String, Object>, Map<String, Object>> offsets = ConnectOffsets.read(file);
      SyncPipeline pipeline = state.pipeline();
      try (HeldLease lease =
          new HeldLease(
              state.store(),
              pipeline.scope(),
              "sync/" + pipeline.name(),
              "skippr state import",
              pipeline.settings().lease())) {
        var holder = lease.take(false, held -> {});
        if (holder.isPresent()) {
          throw new SyncException(
              "pipeline "
                  + pipeline.name()
                  + " is being run by "
                  + holder.get()
                  + "; stop it first");
        }
        state.importOffsets(offsets);
      }
      out.println(
          "skippr state import: "
              + offsets.size()
              + " source partition(s) of "
              + pipeline.name()
              + " set; the next sync resumes there");
    }
  }
}
