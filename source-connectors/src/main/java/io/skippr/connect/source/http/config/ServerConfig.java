package io.skippr.connect.source.http.config;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/** Where the HTTP server listens. */
public final class ServerConfig {

  public static final String BIND_ADDRESS = "server.bind.address";
  public static final String PORT = "server.port";
  public static final String THREADS = "server.threads";

  /** The listener settings. */
  public record Values(String bindAddress, int port, int threads) {}

  private ServerConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            BIND_ADDRESS,
            Type.STRING,
            "127.0.0.1",
            new ConfigDef.NonEmptyString(),
            Importance.HIGH,
            "Address the HTTP server binds to. The default accepts local clients only; use 0.0.0.0"
                + " to accept writes from other hosts (then also set auth.token).")
        .define(
            PORT,
            Type.INT,
            8086,
            Range.between(0, 65535),
            Importance.HIGH,
            "TCP port of the HTTP server (8086 is InfluxDB's). 0 picks a free port (tests).")
        .define(
            THREADS,
            Type.INT,
            4,
            Range.between(1, 256),
            Importance.LOW,
            "Threads that handle requests. Each may hold one request of up to"
                + " limits.request.max.decompressed.bytes while it is parsed.");
  }

  public static Values from(AbstractConfig c) {
    return new Values(c.getString(BIND_ADDRESS), c.getInt(PORT), c.getInt(THREADS));
  }
}
