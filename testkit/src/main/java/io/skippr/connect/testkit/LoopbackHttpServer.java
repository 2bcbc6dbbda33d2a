package io.skippr.connect.testkit;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.skippr.connect.common.MdcThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** A JDK HTTP server on 127.0.0.1 and a free port, served by daemon threads named after it. */
final class LoopbackHttpServer {
  private LoopbackHttpServer() {}

  /** Starts a server handing every request to {@code handler} on one of {@code threads}. */
  static HttpServer start(String threadName, int threads, HttpHandler handler) throws IOException {
    ExecutorService pool = Executors.newFixedThreadPool(threads, new MdcThreadFactory(threadName));
    HttpServer server = HttpServer.create(new InetSocketAddress(LocalProcesses.LOOPBACK, 0), 50);
    server.setExecutor(pool);
    server.createContext("/", handler);
    server.start();
    return server;
  }

  /** The threads of a server this class started. */
  static ExecutorService threads(HttpServer server) {
    return (ExecutorService) server.getExecutor();
  }
}
