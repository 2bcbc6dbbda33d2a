package io.skippr.connect.source.poll;

import java.io.StringWriter;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;

/** Captures every log line (DEBUG and up) while open, to check what the connector writes. */
final class LogCapture implements AutoCloseable {
  private final StringWriter out = new StringWriter();
  private final WriterAppender appender;
  private final Level savedLevel;

  LogCapture() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration config = context.getConfiguration();
    appender =
        WriterAppender.newBuilder()
            .setName("capture-" + System.nanoTime())
            .setTarget(out)
            .setLayout(PatternLayout.newBuilder().withPattern("%p %c{1} %m%n").build())
            .build();
    appender.start();
    config.addAppender(appender);
    LoggerConfig root = config.getRootLogger();
    savedLevel = root.getLevel();
    root.addAppender(appender, Level.DEBUG, null);
    root.setLevel(Level.DEBUG);
    context.updateLoggers();
  }

  String text() {
    synchronized (out) {
      return out.toString();
    }
  }

  @Override
  public void close() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    LoggerConfig root = context.getConfiguration().getRootLogger();
    root.removeAppender(appender.getName());
    root.setLevel(savedLevel);
    context.updateLoggers();
    appender.stop();
  }
}
