package io.skippr.connect.source.http.config;

import io.skippr.connect.source.common.encoding.EncodingConfig;
import io.skippr.connect.state.api.StateStoreConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** The HTTP ingest connector's configuration, composed of one fragment per concern. */
public final class HttpIngestConfig {

  /** All keys of the connector. */
  public static final ConfigDef CONFIG_DEF =
      EncodingConfig.define(
          CatalogConfig.define(
              AdmissionConfig.define(
                  LimitsConfig.define(
                      AuthConfig.define(
                          TopicConfig.define(
                              TlsConfig.define(ServerConfig.define(new ConfigDef()))))))),
          "Structs (line protocol) and maps (JSON)",
          "the request threads (a point's value straight from the parsed point, without a Struct;"
              + " a JSON item from its map)");

  /** The validated settings. */
  public record Values(
      ServerConfig.Values server,
      TlsConfig.Values tls,
      TopicConfig.Values topics,
      AuthConfig.Values auth,
      LimitsConfig.Values limits,
      AdmissionConfig.Values admission,
      CatalogConfig.Values catalog,
      EncodingConfig.Values encoding) {}

  /** The producer's request limit as a connector overrides it. */
  static final String PRODUCER_MAX_REQUEST_SIZE = "producer.override.max.request.size";

  /** What the producer adds to a record's key, value and headers (batch and record headers). */
  static final int RECORD_OVERHEAD_BYTES = 1024;

  private HttpIngestConfig() {}

  /** Parses and cross-checks the settings; throws {@link ConfigException} when they clash. */
  public static Values from(Map<String, String> props) {
    Values v = values(new AbstractConfig(CONFIG_DEF, props));
    for (Map.Entry<String, ConfigException> problem : clashes(v, props).entrySet()) {
      throw problem.getValue();
    }
    return v;
  }

  /**
   * What is wrong with combinations of keys, each message by the key to change; empty when the
   * combination is sound or a single key is already invalid (the ConfigDef reports those).
   */
  public static Map<String, String> problems(Map<String, String> props) {
    Map<String, String> problems = new LinkedHashMap<>();
    AbstractConfig parsed;
    try {
      parsed = new AbstractConfig(CONFIG_DEF, props, false);
    } catch (ConfigException e) {
      return problems;
    }
    try {
      clashes(values(parsed), props).forEach((key, e) -> problems.put(key, e.getMessage()));
    } catch (ConfigException e) {
      problems.put(keyNamedIn(e), e.getMessage());
    }
    StateStoreConfig.problems(props).forEach(problems::putIfAbsent);
    return problems;
  }

  private static Values values(AbstractConfig c) {
    return new Values(
        ServerConfig.from(c),
        TlsConfig.from(c),
        TopicConfig.from(c),
        AuthConfig.from(c),
        LimitsConfig.from(c),
        AdmissionConfig.from(c),
        CatalogConfig.from(c),
        EncodingConfig.from(c));
  }

  private static Map<String, ConfigException> clashes(Values v, Map<String, String> props) {
    Map<String, ConfigException> clashes = new LinkedHashMap<>();
    String converter = EncodingConfig.converterClash(v.encoding(), props);
    if (converter != null) {
      clashes.put(
          EncodingConfig.ENCODING, new ConfigException(EncodingConfig.ENCODING, "json", converter));
    }
    if (v.admission().maxInflightRows() < v.limits().requestMaxRows()) {
      clashes.put(
          AdmissionConfig.MAX_INFLIGHT_ROWS,
          new ConfigException(
              AdmissionConfig.MAX_INFLIGHT_ROWS,
              v.admission().maxInflightRows(),
              "must be at least " + LimitsConfig.REQUEST_MAX_ROWS + " so a single request fits"));
    }
    if (v.admission().maxInflightBytes() < v.limits().requestMaxDecompressedBytes()) {
      clashes.put(
          AdmissionConfig.MAX_INFLIGHT_BYTES,
          new ConfigException(
              AdmissionConfig.MAX_INFLIGHT_BYTES,
              v.admission().maxInflightBytes(),
              "must be at least " + LimitsConfig.REQUEST_MAX_DECOMPRESSED_BYTES));
    }
    recordOverProducerLimit(v, props).ifPresent(e -> clashes.put(LimitsConfig.RECORD_MAX_BYTES, e));
    return clashes;
  }

  /** A record limit the producer's max.request.size override would refuse. */
  private static Optional<ConfigException> recordOverProducerLimit(
      Values v, Map<String, String> props) {
    String override = props.get(PRODUCER_MAX_REQUEST_SIZE);
    long producerMax;
    try {
      producerMax = override == null ? Long.MAX_VALUE : Long.parseLong(override.strip());
    } catch (NumberFormatException e) {
      return Optional.empty(); // Connect reports the producer setting itself
    }
    if (v.limits().recordMaxBytes() + RECORD_OVERHEAD_BYTES <= producerMax) {
      return Optional.empty();
    }
    return Optional.of(
        new ConfigException(
            LimitsConfig.RECORD_MAX_BYTES,
            v.limits().recordMaxBytes(),
            "must be at least "
                + RECORD_OVERHEAD_BYTES
                + " bytes below "
                + PRODUCER_MAX_REQUEST_SIZE
                + " ("
                + producerMax
                + "): the producer refuses a larger record, and that fails the task"));
  }

  /** The key a fragment's ConfigException names ("... for configuration KEY: ..."). */
  private static String keyNamedIn(ConfigException e) {
    String message = String.valueOf(e.getMessage());
    for (String key : CONFIG_DEF.names()) {
      if (message.contains("configuration " + key + ":")
          || message.contains("configuration " + key + " ")) {
        return key;
      }
    }
    return ServerConfig.PORT;
  }
}
