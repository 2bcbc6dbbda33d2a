package io.skippr.connect.common;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The project version, from the resource the build fills in (never Kafka's AppInfoParser): what the
 * {@code version()} of every plugin of the project reports.
 */
public final class ProjectVersion {

  private static final String VERSION = load();

  private ProjectVersion() {}

  public static String get() {
    return VERSION;
  }

  private static String load() {
    Properties p = new Properties();
    try (InputStream in =
        ProjectVersion.class.getResourceAsStream("/skippr-connect-version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      return "unknown";
    }
    return p.getProperty("version", "unknown");
  }
}
