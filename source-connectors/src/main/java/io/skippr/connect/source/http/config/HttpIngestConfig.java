package io.skippr.connect.source.http.config;

import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** The HTTP ingest connector's configuration, composed of one fragment per concern. */
public final class HttpIngestConfig {

  /** All keys of the connector. */
  public static final ConfigDef CONFIG_DEF =
      AdmissionConfig.define(
          LimitsConfig.define(
              AuthConfig.define(TopicConfig.define(ServerConfig.define(new ConfigDef())))));

  /** The validated settings. */
  public record Values(
      ServerConfig.Values server,
      TopicConfig.Values topics,
      AuthConfig.Values auth,
      LimitsConfig.Values limits,
      AdmissionConfig.Values admission) {}

  private HttpIngestConfig() {}

  /** Parses and cross-checks the settings; throws {@link ConfigException} when they clash. */
  public static Values from(Map<String, String> props) {
    AbstractConfig c = new AbstractConfig(CONFIG_DEF, props);
    Values v =
        new Values(
            ServerConfig.from(c),
            TopicConfig.from(c),
            AuthConfig.from(c),
            LimitsConfig.from(c),
            AdmissionConfig.from(c));
    if (v.admission().maxInflightRows() < v.limits().requestMaxRows()) {
      throw new ConfigException(
          AdmissionConfig.MAX_INFLIGHT_ROWS,
          v.admission().maxInflightRows(),
          "must be at least " + LimitsConfig.REQUEST_MAX_ROWS + " so a single request fits");
    }
    if (v.admission().maxInflightBytes() < v.limits().requestMaxDecompressedBytes()) {
      throw new ConfigException(
          AdmissionConfig.MAX_INFLIGHT_BYTES,
          v.admission().maxInflightBytes(),
          "must be at least " + LimitsConfig.REQUEST_MAX_DECOMPRESSED_BYTES);
    }
    return v;
  }
}
