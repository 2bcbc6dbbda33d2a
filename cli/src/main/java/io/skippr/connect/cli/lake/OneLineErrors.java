package io.skippr.connect.cli.lake;

import io.skippr.connect.common.Messages;
import java.io.PrintWriter;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import picocli.CommandLine.Model.CommandSpec;

/**
 * How a short-lived command ends: its own output, or one line on standard error ({@code skippr
 * NAME: reason}) and exit code 1. Our own loggers say only warnings meanwhile: the command's output
 * is the report.
 */
public final class OneLineErrors {
  /** A command's work; returns its exit code. */
  @FunctionalInterface
  public interface Body {
    int run(PrintWriter out) throws Exception;
  }

  private OneLineErrors() {}

  public static int run(CommandSpec spec, Body body) {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Configurator.setLevel("io.skippr.connect", Level.WARN);
    String name = "skippr " + spec.name();
    try {
      return body.run(out);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println(name + ": interrupted");
      return 1;
    } catch (Exception e) {
      err.println(name + ": " + Messages.oneLine(e));
      return 1;
    } finally {
      out.flush();
      err.flush();
    }
  }
}
