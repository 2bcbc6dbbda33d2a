package io.skippr.connect.testkit;

import io.skippr.connect.aws.AwsKeys;
import io.skippr.connect.aws.AwsSettings;
import io.skippr.connect.aws.RetryPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * An S3-compatible server (Adobe's S3Mock, a Spring Boot application) on 127.0.0.1 and a free port,
 * run as a separate {@code java -jar} process with the current JVM's {@code java}, its data in a
 * temporary directory, and stopped by PID (a JVM shutdown hook stops it too if the test run ends
 * first).
 *
 * <p>The jar is copied by testkit's build to {@code testkit/target/servers/s3mock.jar} (it is never
 * on a test classpath: it would bring Spring and slf4j 2 along); the fixture also finds it in the
 * local Maven repository, or at {@code -D}{@value #JAR_PROPERTY}.
 *
 * <p>Start-up takes seconds: share one server per test run with {@link Shared}.
 */
public final class S3MockServer implements AutoCloseable {
  /** System property naming the S3Mock exec jar. */
  public static final String JAR_PROPERTY = "skippr.s3mock.jar";

  /** Any key works: S3Mock does not check signatures. */
  public static final String ACCESS_KEY = "test";

  public static final String SECRET_KEY = "test";

  /** The one KMS key S3Mock accepts with {@code x-amz-server-side-encryption: aws:kms}. */
  public static final String KMS_KEY_ID = "5f0c3bd3-5c4e-4e1b-9a6d-7e4c4f3a9b21";

  /** The ARN S3Mock is started with; it accepts the key by its id. */
  public static final String KMS_KEY_ARN = "arn:aws:kms:us-east-1:111122223333:key/" + KMS_KEY_ID;

  private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final Process process;
  private final int port;
  private final Path home;
  private final Thread exitHook;

  private S3MockServer(Process process, int port, Path home) {
    this.process = process;
    this.port = port;
    this.home = home;
    this.exitHook =
        LocalProcesses.onJvmExit(
            "stop-s3mock", () -> LocalProcesses.stop(process.toHandle(), Duration.ofSeconds(2)));
  }

  /** Starts a server with no buckets. */
  public static S3MockServer start() {
    Path jar = jar();
    IllegalStateException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return launch(jar, LocalProcesses.freePort(), LocalProcesses.freePort());
      } catch (IllegalStateException e) {
        last = e; // most likely lost the race for a port: try others
      }
    }
    throw last;
  }

  /** Plain-HTTP endpoint for path-style access, e.g. {@code http://127.0.0.1:40123}. */
  /** How to reach this server: its endpoint, path-style access and its keys, few retries. */
  public AwsSettings aws() {
    return AwsSettings.defaults()
        .withEndpoint(endpoint())
        .withPathStyleAccess(true)
        .withCredentials(new AwsKeys(ACCESS_KEY, SECRET_KEY, null))
        .withRetry(new RetryPolicy(3, 10, 100));
  }

  public URI endpoint() {
    return URI.create("http://" + LocalProcesses.LOOPBACK + ":" + port);
  }

  public int port() {
    return port;
  }

  public long pid() {
    return process.pid();
  }

  /** Creates a bucket (an existing one of this server is fine). */
  public void createBucket(String bucket) {
    HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/" + bucket)).PUT(none()));
    if (response.statusCode() != 200 && response.statusCode() != 409) {
      throw new IllegalStateException(
          "creating bucket " + bucket + ": HTTP " + response.statusCode() + " " + response.body());
    }
  }

  /** Keys of the complete objects under {@code prefix}, sorted, read without the SDK. */
  public List<String> objectKeys(String bucket, String prefix) {
    return S3Listings.objectKeys(this::get, bucket, prefix);
  }

  /** Keys of the multipart uploads in progress under {@code prefix}, one per upload. */
  public List<String> multipartUploads(String bucket, String prefix) {
    return S3Listings.uploadKeys(this::get, bucket, prefix);
  }

  /** An object's ETag (quoted; a multipart object's ends in {@code -<parts>"}). */
  public String etag(String bucket, String key) {
    HttpResponse<String> response =
        send(
            HttpRequest.newBuilder(uri("/" + bucket + "/" + S3Listings.encodePath(key)))
                .method("HEAD", none()));
    if (response.statusCode() != 200) {
      throw new IllegalStateException("HEAD " + key + ": HTTP " + response.statusCode());
    }
    return response.headers().firstValue("ETag").orElseThrow();
  }

  /** Copies every object under {@code prefix} to {@code target}, keeping the rest of its key. */
  public void download(String bucket, String prefix, Path target) {
    for (String key : objectKeys(bucket, prefix)) {
      Path file = target.resolve(key.substring(prefix.length()).replaceFirst("^/+", ""));
      if (!downloadObject(bucket, key, file)) {
        throw new IllegalStateException("GET " + key + ": HTTP 404");
      }
    }
  }

  /**
   * Copies one object to {@code file}; false when the object does not exist (any other failure
   * throws), as a reader that listed it before it was deleted finds.
   */
  public boolean downloadObject(String bucket, String key, Path file) {
    try {
      Files.createDirectories(file.getParent());
      HttpResponse<InputStream> response =
          HTTP.send(
              HttpRequest.newBuilder(uri("/" + bucket + "/" + S3Listings.encodePath(key)))
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream body = response.body()) {
        if (response.statusCode() == 404) {
          return false;
        }
        if (response.statusCode() != 200) {
          throw new IllegalStateException("GET " + key + ": HTTP " + response.statusCode());
        }
        Files.copy(body, file, StandardCopyOption.REPLACE_EXISTING);
        return true;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("downloading s3://" + bucket + "/" + key, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted downloading " + key, e);
    }
  }

  @Override
  public void close() {
    LocalProcesses.cancelOnJvmExit(exitHook);
    LocalProcesses.stop(process.toHandle(), Duration.ofSeconds(5));
    LocalProcesses.deleteTree(home);
  }

  /**
   * Resolves {@link S3MockServer} parameters (of tests, constructors, {@code @BeforeAll}) to one
   * server shared by every test of the run, stopped when the run ends.
   */
  public static final class Shared implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(S3MockServer.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
      return parameter.getParameter().getType() == S3MockServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
      return context
          .getRoot()
          .getStore(NAMESPACE)
          .getOrComputeIfAbsent("server", key -> S3MockServer.start(), S3MockServer.class);
    }
  }

  private static S3MockServer launch(Path jar, int httpPort, int httpsPort) {
    Path home;
    try {
      home = Files.createTempDirectory("s3mock");
      Path beans = home.resolve("loopback.xml");
      try (InputStream xml = S3MockServer.class.getResourceAsStream("s3mock-loopback.xml")) {
        Files.copy(xml, beans);
      }
      Files.createDirectories(home.resolve("store"));
      Path log = home.resolve("s3mock.log");
      List<String> command =
          List.of(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-Xmx512m",
              "-XX:TieredStopAtLevel=1",
              "-jar",
              jar.toString(),
              "--server.address=" + LocalProcesses.LOOPBACK,
              "--server.port=" + httpsPort,
              "--http.port=" + httpPort,
              "--spring.main.sources=" + beans.toUri(),
              "--com.adobe.testing.s3mock.store.root=" + home.resolve("store"),
              "--com.adobe.testing.s3mock.max-payload-size=64MB",
              "--com.adobe.testing.s3mock.store.valid-kms-keys=" + KMS_KEY_ARN,
              "--logging.level.root=WARN");
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      S3MockServer server = new S3MockServer(process, httpPort, home);
      try {
        Await.until(
            START_TIMEOUT,
            () -> "S3Mock on port " + httpPort + " (log: " + tail(log) + ")",
            () -> !process.isAlive() || server.answers());
      } catch (AssertionError e) {
        server.close();
        throw new IllegalStateException(e.getMessage(), e);
      }
      if (!process.isAlive()) {
        String output = tail(log);
        server.close();
        throw new IllegalStateException("S3Mock exited: " + output);
      }
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start S3Mock from " + jar, e);
    }
  }

  private boolean answers() {
    if (!LocalProcesses.accepts(port)) {
      return false;
    }
    return send(HttpRequest.newBuilder(uri("/")).GET()).statusCode() == 200;
  }

  /** The exec jar: the system property, testkit's build output, or the local Maven repository. */
  static Path jar() {
    String configured = System.getProperty(JAR_PROPERTY);
    if (configured != null) {
      return Path.of(configured);
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path built = dir.resolve("testkit/target/servers/s3mock.jar");
      if (Files.isRegularFile(built)) {
        return built;
      }
    }
    String version = version();
    Path repository =
        Path.of(
            System.getProperty(
                "maven.repo.local",
                Path.of(System.getProperty("user.home"), ".m2", "repository").toString()));
    Path cached =
        repository.resolve(
            "com/adobe/testing/s3mock/" + version + "/s3mock-" + version + "-exec.jar");
    if (Files.isRegularFile(cached)) {
      return cached;
    }
    throw new IllegalStateException(
        "S3Mock "
            + version
            + " not found in testkit/target/servers or "
            + cached
            + ": build testkit (mvn -pl testkit package) or set -D"
            + JAR_PROPERTY);
  }

  private static String version() {
    Properties versions = new Properties();
    try (InputStream in =
        S3MockServer.class.getResourceAsStream("/skippr-testkit-servers.properties")) {
      versions.load(in);
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("skippr-testkit-servers.properties is missing", e);
    }
    return versions.getProperty("s3mock.version");
  }

  private HttpResponse<String> get(String pathAndQuery) {
    HttpResponse<String> response = send(HttpRequest.newBuilder(uri(pathAndQuery)).GET());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          "GET " + pathAndQuery + ": HTTP " + response.statusCode() + " " + response.body());
    }
    return response;
  }

  private HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return HTTP.send(
          request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException("S3Mock on port " + port + " did not answer", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted talking to S3Mock", e);
    }
  }

  private URI uri(String pathAndQuery) {
    return URI.create(endpoint() + pathAndQuery);
  }

  private static HttpRequest.BodyPublisher none() {
    return HttpRequest.BodyPublishers.noBody();
  }

  private static String tail(Path log) {
    try {
      String text = Files.readString(log).strip();
      return text.length() > 4000 ? "…" + text.substring(text.length() - 4000) : text;
    } catch (IOException e) {
      return "(no log)";
    }
  }
}
