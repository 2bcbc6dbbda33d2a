package io.skippr.connect.source.poll.config;

import io.skippr.connect.source.poll.config.EndpointChecks.Problem;
import io.skippr.connect.state.api.PipelineScopeConfig;
import io.skippr.connect.state.api.SecretCodec;
import io.skippr.connect.state.api.StateScope;
import io.skippr.connect.state.api.StateStoreConfig;
import io.skippr.connect.state.api.StoreEnvironment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The HTTP poll connector's configuration: per-endpoint fragments (request, records, cursor,
 * pagination, auth, pacing) that {@code endpoint.<name>.<key>} may override, plus the
 * connector-wide endpoint list and state-store keys.
 */
public final class HttpPollConfig {

  /** Keys an endpoint may override. */
  public static final ConfigDef ENDPOINT_DEF = endpointDef();

  /** All keys of the connector. */
  public static final ConfigDef CONFIG_DEF =
      PollStateConfig.define(EndpointsConfig.define(endpointDef()));

  /**
   * Set by {@code skippr discover} when it samples the source: no offsets are read or mirrored and
   * every endpoint starts from {@code cursor.initial}. Not a user setting.
   */
  public static final String SAMPLE_MODE = "skippr.discover.sample";

  /**
   * The parsed settings.
   *
   * @param connector the connector name (Connect's {@code name}), part of every offset key
   */
  public record Values(
      List<EndpointSettings> endpoints,
      PollStateConfig.Mode mirror,
      StateScope scope,
      String connector,
      boolean sampleMode) {}

  private HttpPollConfig() {}

  private static ConfigDef endpointDef() {
    ConfigDef def = new ConfigDef();
    RequestConfig.define(def);
    RecordsConfig.define(def);
    CursorConfig.define(def);
    PaginationConfig.define(def);
    PollAuthConfig.define(def);
    PacingConfig.define(def);
    return def;
  }

  /** Parses and cross-checks; throws {@link ConfigException} naming every problem. */
  public static Values from(Map<String, String> props) {
    return from(props, StoreEnvironment.system());
  }

  /** Like {@link #from(Map)} against an explicit environment (tests). */
  public static Values from(Map<String, String> props, StoreEnvironment env) {
    AbstractConfig c = new AbstractConfig(CONFIG_DEF, props, false);
    Map<String, String> problems = problems(props, env);
    if (!problems.isEmpty()) {
      List<String> lines = new ArrayList<>();
      problems.forEach((key, message) -> lines.add(key + ": " + message));
      throw new ConfigException(String.join("; ", lines));
    }
    List<EndpointSettings> endpoints = new ArrayList<>();
    for (String name : EndpointsConfig.names(c)) {
      endpoints.add(EndpointSettings.parse(name, EndpointsConfig.merged(name, props)));
    }
    String connector = props.get(PipelineScopeConfig.CONNECTOR_NAME);
    return new Values(
        List.copyOf(endpoints),
        PollStateConfig.mode(c),
        PipelineScopeConfig.from(c),
        connector == null ? "http-poll" : connector,
        Boolean.parseBoolean(props.get(SAMPLE_MODE)));
  }

  /**
   * Problems across keys, by the key to change (several for one key joined by "; "). A problem of a
   * named endpoint goes to the key itself when the endpoint inherits it, else to {@code endpoints}.
   * Empty when some key is invalid on its own (ConfigDef reports those).
   */
  public static Map<String, String> problems(Map<String, String> props, StoreEnvironment env) {
    Map<String, String> problems = new LinkedHashMap<>();
    AbstractConfig c;
    try {
      c = new AbstractConfig(CONFIG_DEF, props, false);
    } catch (ConfigException e) {
      return problems;
    }
    List<String> names = EndpointsConfig.names(c);
    for (String unknown : EndpointsConfig.unknownOverrides(props, names, ENDPOINT_DEF.names())) {
      add(problems, EndpointsConfig.ENDPOINTS, unknown);
    }
    boolean secretsStorable = secretsStorable(c, env);
    boolean named = !c.getList(EndpointsConfig.ENDPOINTS).isEmpty();
    for (String name : names) {
      EndpointSettings settings;
      try {
        settings = EndpointSettings.parse(name, EndpointsConfig.merged(name, props));
      } catch (ConfigException e) {
        add(problems, EndpointsConfig.ENDPOINTS, "endpoint " + name + ": " + e.getMessage());
        continue;
      }
      for (Problem p : EndpointChecks.problems(settings, secretsStorable)) {
        if (!named) {
          add(problems, p.key(), p.message());
        } else if (EndpointsConfig.overrides(name, p.key(), props)) {
          add(
              problems,
              EndpointsConfig.ENDPOINTS,
              EndpointsConfig.OVERRIDE_PREFIX + name + "." + p.key() + " " + p.message());
        } else {
          add(problems, p.key(), "(endpoint " + name + ") " + p.message());
        }
      }
    }
    StateStoreConfig.problems(props).forEach((key, message) -> add(problems, key, message));
    return problems;
  }

  private static boolean secretsStorable(AbstractConfig c, StoreEnvironment env) {
    try {
      return !StateStoreConfig.from(c, env).encryption()
          || env.variable(SecretCodec.ENV_STATE_KEY).isPresent();
    } catch (RuntimeException e) {
      return true; // unusable store settings are reported when the store opens
    }
  }

  private static void add(Map<String, String> problems, String key, String message) {
    problems.merge(key, message, (a, b) -> a + "; " + b);
  }
}
