package io.skippr.connect.source.http.server;

import io.skippr.connect.common.MdcThreadFactory;
import io.skippr.connect.source.http.config.ServerConfig;
import io.skippr.connect.source.http.config.TlsConfig;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.DetectorConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Builds the Jetty server of one task: one connector on the configured address and port (HTTP, or
 * HTTPS when a keystore is set), its idle timeout and connection limit, and a pool of threads that
 * carry the task's MDC. Request handlers never block these threads on a client or on Kafka: bodies
 * are read as they arrive ({@link BodyReader}) and answers written when they are ready.
 */
public final class JettyServers {

  /** Time {@code stop()} gives answers still being written before connections are closed. */
  public static final long STOP_TIMEOUT_MS = 5_000;

  private JettyServers() {}

  /** A server (not yet started) serving {@code handler}. */
  public static Server create(ServerConfig.Values config, TlsConfig.Values tls, Handler handler) {
    QueuedThreadPool threads =
        new QueuedThreadPool(
            Math.max(16, 2 * config.threads() + 8),
            4,
            60_000,
            -1,
            null,
            null,
            new MdcThreadFactory("skippr-http-ingest-io"));
    threads.setName("skippr-http-ingest-io");
    Server server = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    ServerConnector connector = new ServerConnector(server, 1, 1, factories(http, tls));
    connector.setHost(config.bindAddress());
    connector.setPort(config.port());
    connector.setIdleTimeout(config.idleTimeoutMs());
    connector.setAcceptQueueSize(128);
    server.addConnector(connector);
    server.addBean(new NetworkConnectionLimit(config.maxConnections(), server));
    server.setHandler(new GracefulHandler(handler));
    server.setStopTimeout(STOP_TIMEOUT_MS);
    server.setStopAtShutdown(false);
    return server;
  }

  /** The port the server's connector is bound to (after start). */
  public static int port(Server server) {
    return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
  }

  /**
   * Plain HTTP; or TLS detected on the first bytes, where a client that speaks plain HTTP to the
   * TLS port reaches the handler unencrypted (it answers 400 and accepts nothing) instead of a
   * failed handshake it cannot explain.
   */
  private static ConnectionFactory[] factories(HttpConfiguration http, TlsConfig.Values tls) {
    if (!tls.enabled()) {
      return new ConnectionFactory[] {new HttpConnectionFactory(http)};
    }
    SslContextFactory.Server ssl = new SslContextFactory.Server();
    ssl.setKeyStorePath(tls.keystorePath().orElseThrow());
    ssl.setKeyStoreType(tls.type());
    if (tls.keystorePassword() != null) {
      ssl.setKeyStorePassword(tls.keystorePassword().value());
    }
    HttpConfiguration https = new HttpConfiguration(http);
    https.addCustomizer(new SecureRequestCustomizer(false));
    HttpConnectionFactory httpsFactory = new HttpConnectionFactory(https);
    SslConnectionFactory tlsFactory = new SslConnectionFactory(ssl, httpsFactory.getProtocol());
    return new ConnectionFactory[] {new DetectorConnectionFactory(tlsFactory), httpsFactory};
  }
}
