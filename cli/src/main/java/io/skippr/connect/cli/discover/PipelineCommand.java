package io.skippr.connect.cli.discover;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;

/**
 * A command about one pipeline of skippr.yml: prints its result on stdout, or one line {@code
 * skippr <command>: <problem>} on stderr and exits with 1.
 */
abstract class PipelineCommand implements Callable<Integer> {
  @Mixin PipelineOptions options;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  final Map<String, String> env;
  final Path workingDir;

  PipelineCommand(Map<String, String> env, Path workingDir) {
    this.env = env;
    this.workingDir = workingDir;
  }

  /** Does the work, printing to {@code out}; user problems are {@link DiscoveryException}s. */
  abstract void run(PrintWriter out);

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      run(out);
      return 0;
    } catch (DiscoveryException e) {
      err.println("skippr " + spec.name() + ": " + e.getMessage());
      return 1;
    } finally {
      out.flush();
      err.flush();
    }
  }
}
