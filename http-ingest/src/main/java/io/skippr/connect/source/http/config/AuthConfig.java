package io.skippr.connect.source.http.config;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.types.Password;

/** Token authentication of write requests. */
public final class AuthConfig {

  public static final String TOKEN = "auth.token";

  /**
   * @param token the expected token; null when authentication is off
   */
  public record Values(String token) {
    public boolean enabled() {
      return token != null;
    }

    @Override
    public String toString() {
      return "Values[token=" + (token == null ? "none" : "[hidden]") + "]";
    }
  }

  private AuthConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
        TOKEN,
        Type.PASSWORD,
        null,
        Importance.HIGH,
        "When set, writes must carry it as 'Authorization: Token <t>' (InfluxDB v2 clients),"
            + " 'Authorization: Bearer <t>', or as the password of HTTP basic auth or the 'p'"
            + " query parameter (InfluxDB v1 clients); otherwise they get 401. /ping and /health"
            + " stay open.");
  }

  public static Values from(AbstractConfig c) {
    Password token = c.getPassword(TOKEN);
    return new Values(token == null || token.value().isEmpty() ? null : token.value());
  }
}
