package io.skippr.connect.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** Our version, from a resource the build fills in. */
public final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {"skippr " + version()};
  }

  /** The project version, or {@code unknown} when run outside a build. */
  public static String version() {
    try (InputStream in =
        VersionProvider.class.getResourceAsStream("/skippr-cli-version.properties")) {
      Properties props = new Properties();
      if (in != null) {
        props.load(in);
      }
      return props.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
