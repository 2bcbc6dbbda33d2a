package io.skippr.connect.source.http.config;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/** Where the HTTP server listens and how it treats slow, idle and too many clients. */
public final class ServerConfig {

  public static final String BIND_ADDRESS = "server.bind.address";
  public static final String PORT = "server.port";
  public static final String THREADS = "server.threads";
  public static final String QUEUE_SIZE = "server.queue.size";
  public static final String IDLE_TIMEOUT_MS = "server.idle.timeout.ms";
  public static final String REQUEST_TIMEOUT_MS = "server.request.timeout.ms";
  public static final String MIN_BYTES_PER_SECOND = "server.request.min.bytes.per.second";
  public static final String MAX_CONNECTIONS = "server.max.connections";

  /** The listener settings. */
  public record Values(
      String bindAddress,
      int port,
      int threads,
      int queueSize,
      long idleTimeoutMs,
      long requestTimeoutMs,
      long minBytesPerSecond,
      int maxConnections) {}

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
            "TCP port of the HTTP server (8086 is InfluxDB's). Every task of the connector listens"
                + " on it on its own worker, so run at most one task per worker. 0 picks a free"
                + " port (tests).")
        .define(
            IDLE_TIMEOUT_MS,
            Type.LONG,
            30_000L,
            Range.atLeast(1),
            Importance.MEDIUM,
            "A connection on which nothing is sent or received for this long is closed (a kept-alive"
                + " connection between requests, or an upload that stalled: answered 408).")
        .define(
            REQUEST_TIMEOUT_MS,
            Type.LONG,
            30_000L,
            Range.atLeast(1),
            Importance.MEDIUM,
            "Longest time a client may take to send one request body; a slower upload is answered"
                + " 408 and its connection closed. Waiting for Kafka does not count (see"
                + " ack.timeout.ms).")
        .define(
            MIN_BYTES_PER_SECOND,
            Type.LONG,
            1024L,
            Range.atLeast(0),
            Importance.MEDIUM,
            "Slowest average rate at which a request body may arrive, checked once the upload has"
                + " taken a second; a slower upload is answered 408 and its connection closed, so"
                + " slow or stalled clients cannot hold the server's memory. 0 turns the check off.")
        .define(
            MAX_CONNECTIONS,
            Type.INT,
            1024,
            Range.atLeast(1),
            Importance.MEDIUM,
            "Most client connections open at once; further clients wait in the operating system's"
                + " accept queue until one closes.")
        .define(
            THREADS,
            Type.INT,
            4,
            Range.between(1, 256),
            Importance.LOW,
            "Threads that parse received requests and hand their rows over (bodies are read and"
                + " answers written without holding a thread). Each holds one request of up to"
                + " limits.request.max.decompressed.bytes while it parses it.")
        .define(
            QUEUE_SIZE,
            Type.INT,
            64,
            Range.atLeast(1),
            Importance.LOW,
            "Received requests that may wait for a parsing thread; when the queue is full a request"
                + " is answered 503 with Retry-After at once.");
  }

  public static Values from(AbstractConfig c) {
    return new Values(
        c.getString(BIND_ADDRESS),
        c.getInt(PORT),
        c.getInt(THREADS),
        c.getInt(QUEUE_SIZE),
        c.getLong(IDLE_TIMEOUT_MS),
        c.getLong(REQUEST_TIMEOUT_MS),
        c.getLong(MIN_BYTES_PER_SECOND),
        c.getInt(MAX_CONNECTIONS));
  }
}
