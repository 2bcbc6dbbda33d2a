package io.skippr.connect.cli;

import io.skippr.connect.cli.audit.AuditCommand;
import io.skippr.connect.cli.compact.CompactCommand;
import io.skippr.connect.cli.discover.DiscoverCommand;
import io.skippr.connect.cli.discover.SchemaCommand;
import io.skippr.connect.cli.sql.FilesCommand;
import io.skippr.connect.cli.sql.SqlCommand;
import io.skippr.connect.cli.sync.StateCommand;
import io.skippr.connect.cli.sync.SyncCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code skippr} command. */
@Command(
    name = "skippr",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Skippr Connect: land data in a lake through Kafka.",
    subcommands = {
      LocalCommand.class,
      DiscoverCommand.class,
      SchemaCommand.class,
      SyncCommand.class,
      StateCommand.class,
      CompactCommand.class,
      AuditCommand.class,
      SqlCommand.class,
      FilesCommand.class
    })
public final class SkipprCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new SkipprCommand()).execute(args));
  }
}
