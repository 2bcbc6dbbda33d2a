package io.skippr.connect.common;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The environment variables as Skippr's plugins and commands read them: the process environment,
 * where a launcher that runs a worker in its own process ({@code skippr local}) may set a variable
 * for everything it runs, as if the process had been started with it. A launcher's value is kept in
 * the JVM's system properties ({@code skippr.env.NAME}), which every plugin class loader sees.
 */
public final class ProcessEnvironment {
  /** Prefix of the system properties that set a variable for the whole process. */
  public static final String OVERRIDE_PREFIX = "skippr.env.";

  private ProcessEnvironment() {}

  /** The process environment, with the values set by {@link #set} in place of the real ones. */
  public static Map<String, String> variables() {
    Map<String, String> variables = new HashMap<>(System.getenv());
    Properties properties = System.getProperties();
    for (String name : properties.stringPropertyNames()) {
      if (name.startsWith(OVERRIDE_PREFIX) && name.length() > OVERRIDE_PREFIX.length()) {
        variables.put(name.substring(OVERRIDE_PREFIX.length()), properties.getProperty(name));
      }
    }
    return Map.copyOf(variables);
  }

  /** One variable; empty when unset or blank. */
  public static Optional<String> variable(String name) {
    String set = System.getProperty(OVERRIDE_PREFIX + name);
    String value = set != null ? set : System.getenv(name);
    return Optional.ofNullable(value).filter(v -> !v.isBlank());
  }

  /** Sets a variable for everything this process runs from now on (launchers only). */
  public static void set(String name, String value) {
    System.setProperty(OVERRIDE_PREFIX + name, value);
  }
}
