package io.skippr.connect.cli.discover;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/** What a command printed and returned. */
public record CommandRun(int exit, String out, String err) {
  /** Runs {@code command} with {@code args}, capturing stdout and stderr. */
  public static CommandRun of(Object command, List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(command);
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exit = cli.execute(args.toArray(String[]::new));
    return new CommandRun(exit, out.toString(), err.toString());
  }
}
