package io.skippr.connect.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.FreePorts;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets of a connector through Connect's config providers, as docs/deploy.md tells: a stock
 * worker with {@code config.providers=env,file} runs HTTP ingest whose {@code auth.token} is {@code
 * ${env:…}} and whose keystore password is {@code ${file:…}}. The REST API shows only the
 * placeholders, the worker's log neither secret, and clients authenticate with the token over the
 * HTTPS the keystore serves.
 */
class ConfigProviderIT {
  private static final Duration READY = Duration.ofMinutes(2);
  private static final String NAME = "ingest-with-secrets";
  private static final String TOKEN = "token-" + UUID.randomUUID();
  private static final String PASSWORD = "keystore-" + UUID.randomUUID();
  private static final String TOKEN_PLACEHOLDER = "${env:SKIPPR_INGEST_TOKEN}";

  @TempDir static Path dir;
  private static final List<CliProcess> processes = new ArrayList<>();
  private static ConnectWorkerProcess worker;
  private static Path keystore;
  private static String passwordPlaceholder;
  private static int ingestPort;

  @BeforeAll
  static void start() throws Exception {
    keystore = dir.resolve("ingest.p12");
    keytool(
        "-genkeypair",
        "-alias",
        "ingest",
        "-keyalg",
        "RSA",
        "-keysize",
        "2048",
        "-validity",
        "2",
        "-dname",
        "CN=localhost",
        "-ext",
        "SAN=ip:127.0.0.1,dns:localhost",
        "-storetype",
        "PKCS12",
        "-keystore",
        keystore.toString(),
        "-storepass",
        PASSWORD,
        "-keypass",
        PASSWORD);
    Path secrets = dir.resolve("secrets.properties");
    Files.writeString(secrets, "keystore.password=" + PASSWORD + "\n");
    passwordPlaceholder = "${file:" + secrets + ":keystore.password}";

    int[] ports = FreePorts.take(4);
    processes.add(CliProcess.startBroker(dir, ports[0], ports[1], READY));
    Path workerDir = Files.createDirectories(dir.resolve("worker"));
    worker =
        ConnectWorkerProcess.start(
            workerDir,
            workerConfig("127.0.0.1:" + ports[0], ports[2]),
            Map.of("SKIPPR_INGEST_TOKEN", TOKEN));
    worker.awaitReady(READY, List.of("io.skippr.connect.source.http.HttpIngestSourceConnector"));
    ingestPort = ports[3];
    worker.putConnector(NAME, connectorConfig());
    Await.until(
        READY, () -> NAME + " running; log:\n" + worker.tail(), () -> worker.running(NAME, 1));
  }

  @AfterAll
  static void stop() throws Exception {
    if (worker != null) {
      worker.close();
    }
    CliProcess.stopAll(processes);
  }

  private static Properties workerConfig(String bootstrap, int restPort) {
    Properties props = ConnectWorkerProcess.plainWorker(bootstrap, restPort);
    // What docs/deploy.md and docker/worker.properties set.
    props.setProperty("config.providers", "env,file");
    props.setProperty(
        "config.providers.env.class",
        "org.apache.kafka.common.config.provider.EnvVarConfigProvider");
    props.setProperty(
        "config.providers.file.class",
        "org.apache.kafka.common.config.provider.FileConfigProvider");
    return props;
  }

  private static Map<String, String> connectorConfig() {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", "io.skippr.connect.source.http.HttpIngestSourceConnector");
    config.put("tasks.max", "1");
    config.put("server.port", Integer.toString(ingestPort));
    config.put("auth.token", TOKEN_PLACEHOLDER);
    config.put("server.tls.keystore.path", keystore.toString());
    config.put("server.tls.keystore.password", passwordPlaceholder);
    config.put("topic.prefix", "secure.");
    config.put("store.rocksdb.path", dir.resolve("state").toString());
    config.put("topic.creation.default.replication.factor", "1");
    config.put("topic.creation.default.partitions", "1");
    return config;
  }

  @Test
  void theRestApiShowsOnlyThePlaceholders() {
    JsonNode config = worker.get("/connectors/" + NAME + "/config");
    assertThat(config.path("auth.token").asText()).isEqualTo(TOKEN_PLACEHOLDER);
    assertThat(config.path("server.tls.keystore.password").asText()).isEqualTo(passwordPlaceholder);
    for (String path :
        List.of(
            "/connectors/" + NAME + "/config", "/connectors/" + NAME, "/connectors?expand=info")) {
      String body = worker.get(path).toString();
      assertThat(body).as(path).doesNotContain(TOKEN).doesNotContain(PASSWORD);
    }
  }

  @Test
  void clientsAuthenticateWithTheTokenOverHttps() throws Exception {
    HttpClient https = HttpClient.newBuilder().sslContext(trustingTheKeystore()).build();
    assertThat(write(https, "Token " + TOKEN).statusCode()).isEqualTo(204);
    assertThat(write(https, "Bearer " + TOKEN).statusCode()).isEqualTo(204);
    assertThat(write(https, "Token " + TOKEN_PLACEHOLDER).statusCode())
        .as("the placeholder is no token")
        .isEqualTo(401);
    assertThat(write(https, null).statusCode()).isEqualTo(401);
    String log = Files.readString(dir.resolve("worker/worker.log"));
    assertThat(log).as("the worker's log").doesNotContain(TOKEN).doesNotContain(PASSWORD);
  }

  private static HttpResponse<String> write(HttpClient client, String authorization)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create("https://127.0.0.1:" + ingestPort + "/api/v2/write?bucket=b"))
            .timeout(Duration.ofSeconds(60))
            .POST(HttpRequest.BodyPublishers.ofString("cpu,host=a usage=0.5"));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static SSLContext trustingTheKeystore() throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keystore)) {
      trust.load(in, PASSWORD.toCharArray());
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }

  private static void keytool(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
  }
}
