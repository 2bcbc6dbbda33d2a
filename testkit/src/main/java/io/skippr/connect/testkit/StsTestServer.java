package io.skippr.connect.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small STS on 127.0.0.1 that answers {@code AssumeRole} and {@code AssumeRoleWithWebIdentity}
 * with fresh temporary credentials of a chosen lifetime (each answer a new access key id), and
 * remembers what it issued, to whom, and until when: tests check that every request elsewhere is
 * signed with a key it issued and not yet expired.
 */
public final class StsTestServer implements AutoCloseable {
  /** The prefix of every access key id this server issues (as AWS's temporary keys). */
  public static final String KEY_PREFIX = "ASIATEST";

  private static final Pattern CREDENTIAL = Pattern.compile("Credential=([^/,\\s]+)/");

  /**
   * Credentials issued.
   *
   * @param action AssumeRole or AssumeRoleWithWebIdentity
   * @param callerKeyId the access key id that signed an AssumeRole request, null for web identity
   * @param token the web identity token presented, null for AssumeRole
   * @param issuedAt when this server answered
   * @param expiration when the credentials expire (whole seconds, as STS gives them)
   */
  public record Issued(
      String accessKeyId,
      String action,
      String roleArn,
      String sessionName,
      String externalId,
      String callerKeyId,
      String token,
      Instant issuedAt,
      Instant expiration) {}

  private final HttpServer server;
  private final ExecutorService threads;
  private final Duration lifetime;
  private final Clock clock;
  private final List<Issued> issued = new CopyOnWriteArrayList<>();
  private final AtomicInteger serial = new AtomicInteger();

  private StsTestServer(Duration lifetime, Clock clock) throws IOException {
    this.lifetime = lifetime;
    this.clock = clock;
    this.server = LoopbackHttpServer.start("sts-test-server", 2, this::handle);
    this.threads = LoopbackHttpServer.threads(server);
  }

  /** Starts a server whose credentials expire {@code lifetime} after they are issued. */
  public static StsTestServer start(Duration lifetime) {
    try {
      return new StsTestServer(lifetime, Clock.systemUTC());
    } catch (IOException e) {
      throw new IllegalStateException("cannot start the STS test server", e);
    }
  }

  public URI endpoint() {
    return URI.create("http://" + LocalProcesses.LOOPBACK + ":" + server.getAddress().getPort());
  }

  /** Everything issued so far, in order. */
  public List<Issued> issued() {
    return List.copyOf(issued);
  }

  /** What issued {@code accessKeyId}, if this server did. */
  public Optional<Issued> issued(String accessKeyId) {
    return issued.stream().filter(i -> i.accessKeyId().equals(accessKeyId)).findFirst();
  }

  /** The access key id of an AWS SigV4 {@code Authorization} header, or null. */
  public static String accessKeyIdOf(String authorization) {
    if (authorization == null) {
      return null;
    }
    Matcher m = CREDENTIAL.matcher(authorization);
    return m.find() ? m.group(1) : null;
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    Map<String, String> form = form(exchange);
    String action = form.getOrDefault("Action", "");
    if (!action.equals("AssumeRole") && !action.equals("AssumeRoleWithWebIdentity")) {
      respond(exchange, 400, error("InvalidAction", "not supported here: " + action));
      return;
    }
    boolean web = action.equals("AssumeRoleWithWebIdentity");
    String caller = accessKeyIdOf(exchange.getRequestHeaders().getFirst("Authorization"));
    if (!web && caller == null) {
      respond(exchange, 403, error("MissingAuthenticationToken", "AssumeRole must be signed"));
      return;
    }
    Instant now = clock.instant();
    Instant expiration = now.plus(lifetime).truncatedTo(ChronoUnit.SECONDS);
    Issued credentials =
        new Issued(
            String.format("%s%08d", KEY_PREFIX, serial.incrementAndGet()),
            action,
            form.get("RoleArn"),
            form.get("RoleSessionName"),
            form.get("ExternalId"),
            web ? null : caller,
            web ? form.get("WebIdentityToken") : null,
            now,
            expiration);
    issued.add(credentials);
    respond(exchange, 200, answer(action, credentials));
  }

  private static String answer(String action, Issued c) {
    String session = c.sessionName() == null ? "session" : c.sessionName();
    return "<"
        + action
        + "Response xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><"
        + action
        + "Result><Credentials><AccessKeyId>"
        + c.accessKeyId()
        + "</AccessKeyId><SecretAccessKey>secret-"
        + c.accessKeyId()
        + "</SecretAccessKey><SessionToken>token-"
        + c.accessKeyId()
        + "</SessionToken><Expiration>"
        + c.expiration()
        + "</Expiration></Credentials><AssumedRoleUser><AssumedRoleId>AROATEST:"
        + session
        + "</AssumedRoleId><Arn>"
        + c.roleArn()
        + "/"
        + session
        + "</Arn></AssumedRoleUser></"
        + action
        + "Result><ResponseMetadata><RequestId>"
        + c.accessKeyId()
        + "</RequestId></ResponseMetadata></"
        + action
        + "Response>";
  }

  private static String error(String code, String message) {
    return "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><Error>"
        + "<Type>Sender</Type><Code>"
        + code
        + "</Code><Message>"
        + message
        + "</Message></Error><RequestId>0</RequestId></ErrorResponse>";
  }

  private static Map<String, String> form(HttpExchange exchange) throws IOException {
    String body;
    try (InputStream in = exchange.getRequestBody()) {
      body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Map<String, String> form = new HashMap<>();
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        form.put(
            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return form;
  }

  private static void respond(HttpExchange exchange, int status, String xml) throws IOException {
    byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/xml");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
