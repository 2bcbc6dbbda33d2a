package io.skippr.connect.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Renders a connector's {@link ConfigDef} as a Markdown reference and keeps the committed copies (a
 * page under {@code docs/config/} and a marked section of the README) in step with the code.
 *
 * <p>A test calls {@link #check}: when a copy differs it fails, naming the file; run the test with
 * {@code -Dskippr.docs.update=true} to rewrite the copies.
 */
public final class ConfigReference {
  /** System property that makes {@link #check} rewrite stale copies instead of failing. */
  public static final String UPDATE_PROPERTY = "skippr.docs.update";

  private ConfigReference() {}

  /** The Markdown table of every key: name, type, default, valid values, importance, doc. */
  public static String render(String title, ConfigDef def) {
    StringBuilder out = new StringBuilder();
    out.append("### ").append(title).append("\n\n");
    out.append("| key | type | default | valid values | importance | description |\n");
    out.append("| --- | --- | --- | --- | --- | --- |\n");
    // Kafka's own order: importance first, then name.
    List<ConfigDef.ConfigKey> keys =
        def.configKeys().values().stream()
            .sorted(
                Comparator.comparing((ConfigDef.ConfigKey k) -> k.importance)
                    .thenComparing(k -> k.name))
            .toList();
    for (ConfigDef.ConfigKey key : keys) {
      out.append("| `")
          .append(key.name)
          .append("` | ")
          .append(key.type.name().toLowerCase(Locale.ROOT))
          .append(" | ")
          .append(cell(defaultOf(key)))
          .append(" | ")
          .append(cell(key.validator == null ? "" : key.validator.toString()))
          .append(" | ")
          .append(key.importance.name().toLowerCase(Locale.ROOT))
          .append(" | ")
          .append(cell(key.documentation))
          .append(" |\n");
    }
    return out.toString();
  }

  /**
   * Checks that {@code docs/config/{slug}.md} and the README section between {@code <!--
   * config:{slug} -->} and {@code <!-- /config:{slug} -->} hold the rendering.
   */
  public static void check(String slug, String title, ConfigDef def) {
    String rendered = render(title, def);
    Path root = repositoryRoot();
    Path page = root.resolve("docs/config/" + slug + ".md");
    String pageText =
        "<!-- Generated from the connector's ConfigDef; do not edit by hand. -->\n\n" + rendered;
    Path readme = root.resolve("README.md");
    String readmeText = withSection(read(readme), slug, rendered);
    boolean update = Boolean.getBoolean(UPDATE_PROPERTY);
    sync(page, pageText, update);
    sync(readme, readmeText, update);
  }

  private static void sync(Path file, String expected, boolean update) {
    String actual = Files.exists(file) ? read(file) : "";
    if (actual.equals(expected)) {
      return;
    }
    if (!update) {
      throw new AssertionError(
          file
              + " is out of date with the ConfigDef: run the test with -D"
              + UPDATE_PROPERTY
              + "=true and commit the result");
    }
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, expected, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String withSection(String readme, String slug, String rendered) {
    String start = "<!-- config:" + slug + " -->";
    String end = "<!-- /config:" + slug + " -->";
    int from = readme.indexOf(start);
    int to = readme.indexOf(end);
    if (from < 0 || to < from) {
      throw new AssertionError("README.md lacks the markers " + start + " ... " + end);
    }
    return readme.substring(0, from + start.length()) + "\n" + rendered + readme.substring(to);
  }

  private static String defaultOf(ConfigDef.ConfigKey key) {
    if (!key.hasDefault()) {
      return "(required)";
    }
    if (key.type == ConfigDef.Type.PASSWORD) {
      return "(hidden)";
    }
    Object value = key.defaultValue;
    if (value instanceof List<?> list) {
      return String.join(",", list.stream().map(String::valueOf).toList());
    }
    return value == null ? "null" : ConfigDef.convertToString(value, key.type);
  }

  private static String cell(String text) {
    if (text == null || text.isEmpty()) {
      return "";
    }
    return text.replace("|", "\\|").replace("\n", " ");
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path repositoryRoot() {
    for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.exists(p.resolve(".ci/run")) && Files.exists(p.resolve("README.md"))) {
        return p;
      }
    }
    throw new IllegalStateException(
        "repository root not found above " + Paths.get("").toAbsolutePath());
  }
}
