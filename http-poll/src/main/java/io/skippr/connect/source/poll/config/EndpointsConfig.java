package io.skippr.connect.source.poll.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/** Several endpoints in one connector: {@code endpoints} and {@code endpoint.<name>.<key>}. */
public final class EndpointsConfig {

  public static final String ENDPOINTS = "endpoints";
  public static final String OVERRIDE_PREFIX = "endpoint.";

  /** The name of the one endpoint when {@code endpoints} is empty. */
  public static final String DEFAULT_ENDPOINT = "default";

  /** The key of the source partition map; its value is the endpoint's name. */
  public static final String PARTITION_KEY = "endpoint";

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,100}");

  private EndpointsConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
        ENDPOINTS,
        Type.LIST,
        "",
        ConfigDef.LambdaValidator.with(
            EndpointsConfig::validateNames,
            () -> "names of letters, digits, '_' and '-', each at most once"),
        Importance.HIGH,
        "Optional endpoint names. endpoint.<name>.<key> overrides any request, records, cursor,"
            + " pagination, auth, pacing or retry key for that endpoint (its own http.url, topic,"
            + " cursor, ...). Each endpoint has its own offsets (source partition"
            + " {\"endpoint\":\"<name>\"}); endpoints are spread over tasks.max tasks. Empty: one"
            + " endpoint named '"
            + DEFAULT_ENDPOINT
            + "' from the keys as they are.");
  }

  /** The endpoint names in order, or the default endpoint. */
  public static List<String> names(AbstractConfig c) {
    List<String> names = c.getList(ENDPOINTS);
    return names.isEmpty() ? List.of(DEFAULT_ENDPOINT) : List.copyOf(names);
  }

  /** The connector's properties with the endpoint's overrides applied. */
  public static Map<String, String> merged(String name, Map<String, String> props) {
    Map<String, String> merged = new HashMap<>(props);
    String prefix = OVERRIDE_PREFIX + name + ".";
    props.forEach(
        (key, value) -> {
          if (key.startsWith(prefix)) {
            merged.put(key.substring(prefix.length()), value);
          }
        });
    return merged;
  }

  /** Whether the endpoint overrides {@code key}. */
  public static boolean overrides(String name, String key, Map<String, String> props) {
    return props.containsKey(OVERRIDE_PREFIX + name + "." + key);
  }

  /**
   * Override keys that name no configured endpoint or no overridable key, as problems.
   *
   * @return messages, empty when every override is known
   */
  public static List<String> unknownOverrides(
      Map<String, String> props, List<String> names, Set<String> overridable) {
    List<String> problems = new ArrayList<>();
    for (String key : props.keySet()) {
      if (!key.startsWith(OVERRIDE_PREFIX)) {
        continue;
      }
      String rest = key.substring(OVERRIDE_PREFIX.length());
      int dot = rest.indexOf('.');
      String name = dot < 0 ? rest : rest.substring(0, dot);
      String inner = dot < 0 ? "" : rest.substring(dot + 1);
      if (!names.contains(name)) {
        problems.add(key + ": '" + name + "' is not listed in " + ENDPOINTS);
      } else if (!overridable.contains(inner)) {
        problems.add(key + ": '" + inner + "' is not a key an endpoint can override");
      }
    }
    return problems;
  }

  private static void validateNames(String key, Object value) {
    @SuppressWarnings("unchecked")
    List<String> names = value == null ? List.of() : (List<String>) value;
    Set<String> seen = new LinkedHashSet<>();
    for (String name : names) {
      if (!NAME.matcher(name).matches()) {
        throw new ConfigException(
            key, value, "'" + name + "' must be 1-100 letters, digits, '_' or '-'");
      }
      if (!seen.add(name)) {
        throw new ConfigException(key, value, "'" + name + "' is listed twice");
      }
    }
  }
}
