package io.skippr.connect.source.poll.config;

import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;

/**
 * The settings of one endpoint: the connector-level keys with its {@code endpoint.<name>.<key>}
 * overrides applied.
 *
 * @param name the endpoint's name, also its source partition ({@code {"endpoint": name}})
 */
public record EndpointSettings(
    String name,
    RequestConfig.Values request,
    RecordsConfig.Values records,
    CursorConfig.Values cursor,
    PaginationConfig.Values pagination,
    PollAuthConfig.Values auth,
    PacingConfig.Values pacing) {

  /** Parses an endpoint's merged properties with {@link HttpPollConfig#ENDPOINT_DEF}. */
  static EndpointSettings parse(String name, Map<String, String> merged) {
    AbstractConfig c = new AbstractConfig(HttpPollConfig.ENDPOINT_DEF, merged, false);
    return new EndpointSettings(
        name,
        RequestConfig.from(c),
        RecordsConfig.from(c),
        CursorConfig.from(c),
        PaginationConfig.from(c),
        PollAuthConfig.from(c),
        PacingConfig.from(c));
  }

  /** The source partition of this endpoint's offsets. */
  public Map<String, String> sourcePartition() {
    return Map.of(EndpointsConfig.PARTITION_KEY, name);
  }
}
