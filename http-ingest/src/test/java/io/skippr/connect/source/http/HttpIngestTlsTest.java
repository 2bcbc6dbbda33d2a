package io.skippr.connect.source.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS with a keystore made by the JDK's keytool for this test, and a client that trusts only its
 * certificate; a plain HTTP request to the TLS port gets a clear 400 and writes nothing.
 */
class HttpIngestTlsTest {

  private static final String PASSWORD = "ingest-test-pass";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  private static Path keystore;
  private static Path certificate;

  @BeforeAll
  static void makeKeystore() throws Exception {
    keystore = dir.resolve("ingest.p12");
    certificate = dir.resolve("ingest.pem");
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
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        "ingest",
        "-keystore",
        keystore.toString(),
        "-storepass",
        PASSWORD,
        "-file",
        certificate.toString());
  }

  @Test
  void writesOverHttpsLandAndPlainHttpIsRefusedClearly() throws Exception {
    try (TaskHarness h = new TaskHarness(tls(PASSWORD))) {
      HttpClient trusting = HttpClient.newBuilder().sslContext(trusting()).build();
      HttpResponse<String> written =
          trusting.send(
              HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + h.port() + "/api/v2/write"))
                  .POST(HttpRequest.BodyPublishers.ofString("secure v=1i 1"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(written.statusCode()).as(written.body()).isEqualTo(204);
      assertThat(h.sentTo("lp.secure")).hasSize(1);

      HttpResponse<String> plain =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + h.port() + "/write"))
                      .POST(HttpRequest.BodyPublishers.ofString("plain v=1i 1"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(plain.statusCode()).isEqualTo(400);
      assertThat(JSON.readTree(plain.body()).get("message").asText())
          .isEqualTo("this port speaks HTTPS only; use an https:// URL");
      assertThat(h.sentTo("lp.plain")).isEmpty();
    }
  }

  @Test
  void aWrongKeystorePasswordFailsTheTaskWithTheReason() {
    assertThatThrownBy(() -> new TaskHarness(tls("not-the-password")).close())
        .isInstanceOf(ConnectException.class)
        .hasMessageStartingWith("Cannot start HTTP ingest on 127.0.0.1:0")
        .hasMessageContaining("password");
  }

  private static Map<String, String> tls(String password) {
    Map<String, String> props = new HashMap<>();
    props.put("server.tls.keystore.path", keystore.toString());
    props.put("server.tls.keystore.password", password);
    return props;
  }

  private static SSLContext trusting() throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(certificate)) {
      Certificate cert = CertificateFactory.getInstance("X.509").generateCertificate(in);
      trust.setCertificateEntry("ingest", cert);
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }

  private static void keytool(String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(output).isZero();
  }
}
