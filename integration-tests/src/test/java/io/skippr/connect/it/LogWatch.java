package io.skippr.connect.it;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * Everything this JVM logs (an embedded worker and broker log here) from INFO up, and the plugin's
 * own loggers from DEBUG up, while the console keeps showing what it showed before: messages, their
 * parameters as formatted, and the stack traces of their exceptions, kept as text so a test can
 * search them for secrets. Loggers of the test's own side can be left out ({@link
 * #start(String...)}). {@link #close()} restores the logging configuration.
 */
final class LogWatch implements AutoCloseable {
  private static final String OWN = "io.skippr.connect";

  private final LoggerContext context;
  private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
  private final Appender appender;
  private final List<String> ignored;

  private LogWatch(List<String> ignored) {
    this.ignored = ignored;
    context = (LoggerContext) LogManager.getContext(false);
    appender =
        new AbstractAppender("log-watch", null, null, true, Property.EMPTY_ARRAY) {
          @Override
          public void append(LogEvent event) {
            if (ignored.stream().anyMatch(event.getLoggerName()::startsWith)) {
              return;
            }
            StringBuilder text =
                new StringBuilder(event.getLoggerName())
                    .append(' ')
                    .append(event.getMessage().getFormattedMessage());
            if (event.getThrown() != null) {
              StringWriter trace = new StringWriter();
              event.getThrown().printStackTrace(new PrintWriter(trace));
              text.append('\n').append(trace);
            }
            lines.add(text.toString());
          }
        };
    appender.start();
    Configuration config = context.getConfiguration();
    config.addAppender(appender);
    LoggerConfig root = config.getRootLogger();
    Level shown = root.getLevel();
    // The console keeps its levels: the root's, and INFO for the plugin's loggers.
    for (Appender console : List.copyOf(root.getAppenders().values())) {
      root.removeAppender(console.getName());
      root.addAppender(console, shown, null);
    }
    root.addAppender(appender, Level.ALL, null);
    root.setLevel(Level.INFO);
    LoggerConfig own = config.getLoggerConfig(OWN);
    if (own.getName().equals(OWN)) {
      own.setLevel(Level.DEBUG);
      for (Appender console : config.getRootLogger().getAppenders().values()) {
        if (console != appender) {
          own.addAppender(console, Level.INFO, null);
        }
      }
      own.addAppender(appender, Level.ALL, null);
      own.setAdditive(false);
    }
    context.updateLoggers();
  }

  /** Starts watching every logger but those whose names start with one of {@code ignored}. */
  static LogWatch start(String... ignored) {
    return new LogWatch(List.of(ignored));
  }

  /** How many log events were seen so far. */
  int events() {
    return lines.size();
  }

  /** The events seen so far that contain any of {@code secrets}, each cut to 2000 characters. */
  List<String> containing(List<String> secrets) {
    return lines.stream()
        .filter(line -> secrets.stream().anyMatch(line::contains))
        .map(line -> line.length() > 2000 ? line.substring(0, 2000) + "…" : line)
        .toList();
  }

  @Override
  public void close() {
    context.reconfigure();
    appender.stop();
  }
}
