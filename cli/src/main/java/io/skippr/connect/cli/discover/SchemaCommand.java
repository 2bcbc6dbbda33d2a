package io.skippr.connect.cli.discover;

import io.skippr.connect.common.Messages;
import io.skippr.connect.common.ProcessEnvironment;
import io.skippr.connect.schema.Contract;
import io.skippr.connect.schema.ContractStorage;
import io.skippr.connect.schema.PipelineId;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code skippr schema}: prints the contracts {@code skippr discover} saved for a pipeline. */
@Command(
    name = "schema",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the pipeline's saved contracts: one field tree per namespace, or the JSON document.",
      "Exit code 0 on success, 1 when the pipeline is unknown or has no saved contract."
    })
public final class SchemaCommand extends PipelineCommand {
  public SchemaCommand() {
    this(ProcessEnvironment.variables(), Path.of("").toAbsolutePath());
  }

  /** With another environment and working directory than the process's (tests). */
  public SchemaCommand(Map<String, String> env, Path workingDir) {
    super(env, workingDir);
  }

  @Override
  void run(PrintWriter out) {
    PipelineId id = options.spec(env, workingDir).id();
    List<Contract> contracts;
    String location;
    try (ContractStorage store = options.store(env, workingDir)) {
      location = store.location(id);
      contracts = store.load(id);
    } catch (DiscoveryException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new DiscoveryException(Messages.oneLine(e), e);
    }
    if (contracts.isEmpty()) {
      throw new DiscoveryException(
          "no contract saved for pipeline "
              + id
              + " at "
              + location
              + " (run: skippr discover --pipeline "
              + id.pipeline()
              + ")");
    }
    out.print(
        options.output == PipelineOptions.Output.json
            ? ContractText.json(contracts)
            : ContractText.text(contracts, Map.of()));
  }
}
