package io.skippr.connect.sink;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The plugin's version, filtered into a resource at build time (no Kafka internals needed). */
final class ConnectorVersion {
  private static final String RESOURCE = "/skippr-connect-version.properties";
  private static final String VERSION = load();

  private ConnectorVersion() {}

  static String get() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in = ConnectorVersion.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return "unknown";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }
}
