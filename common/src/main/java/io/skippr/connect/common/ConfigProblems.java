package io.skippr.connect.common;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;

/** Adds a connector's cross-field problems to the result of Connect's per-key validation. */
public final class ConfigProblems {
  private ConfigProblems() {}

  /**
   * {@code validated} with each problem attached to its key. A key the connector does not define
   * (Connect's own, such as {@code consumer.override.*}) is added as a value of its own, which
   * Connect lists with the connector's and counts as an error.
   */
  public static Config attach(
      Config validated, Map<String, String> problems, Map<String, String> connectorConfig) {
    Map<String, String> left = new LinkedHashMap<>(problems);
    for (ConfigValue value : validated.configValues()) {
      String problem = left.remove(value.name());
      if (problem != null) {
        value.addErrorMessage(problem);
      }
    }
    if (left.isEmpty()) {
      return validated;
    }
    List<ConfigValue> values = new ArrayList<>(validated.configValues());
    left.forEach(
        (key, problem) ->
            values.add(
                new ConfigValue(
                    key, connectorConfig.get(key), List.of(), new ArrayList<>(List.of(problem)))));
    return new Config(values);
  }
}
