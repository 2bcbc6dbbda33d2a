package io.skippr.connect.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/** A single-node KRaft broker (broker and controller in one) on 127.0.0.1. */
final class EmbeddedBroker implements AutoCloseable {
  private final Path logDir;
  private final int port;
  private final int controllerPort;
  private KafkaRaftServer server;

  EmbeddedBroker(Path logDir, int port, int controllerPort) {
    this.logDir = logDir;
    this.port = port;
    this.controllerPort = controllerPort;
  }

  String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  /** Formats the log directory on first use (keeping the cluster id after that) and starts. */
  void start() {
    Properties props = serverProperties();
    if (!Files.exists(logDir.resolve("meta.properties"))) {
      format(props);
    }
    server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
    server.startup();
  }

  private Properties serverProperties() {
    Properties props = new Properties();
    props.put("process.roles", "broker,controller");
    props.put("node.id", "1");
    props.put("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
    props.put(
        "listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
    props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
    props.put("controller.listener.names", "CONTROLLER");
    props.put("inter.broker.listener.name", "PLAINTEXT");
    props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    props.put("log.dirs", logDir.toString());
    props.put("num.partitions", "1");
    props.put("offsets.topic.replication.factor", "1");
    props.put("transaction.state.log.replication.factor", "1");
    props.put("transaction.state.log.min.isr", "1");
    props.put("share.coordinator.state.topic.replication.factor", "1");
    props.put("share.coordinator.state.topic.min.isr", "1");
    props.put("group.initial.rebalance.delay.ms", "0");
    props.put("auto.create.topics.enable", "false");
    return props;
  }

  private void format(Properties props) {
    try {
      Files.createDirectories(logDir);
      Path config = logDir.resolveSibling("server.properties");
      try (OutputStream out = Files.newOutputStream(config)) {
        props.store(out, "written by skippr local to format the log directory");
      }
      ByteArrayOutputStream output = new ByteArrayOutputStream();
      String[] args = {
        "format", "-t", Uuid.randomUuid().toString(), "-c", config.toString(), "--standalone"
      };
      int code = StorageTool.execute(args, new PrintStream(output, true, StandardCharsets.UTF_8));
      if (code != 0) {
        throw new StartupException(
            "cannot format " + logDir + ": " + output.toString(StandardCharsets.UTF_8).trim());
      }
    } catch (IOException e) {
      throw new StartupException("cannot format " + logDir + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    if (server != null) {
      server.shutdown();
      server.awaitShutdown();
      server = null;
    }
  }
}
