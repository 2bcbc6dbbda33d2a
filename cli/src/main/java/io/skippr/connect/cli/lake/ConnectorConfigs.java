package io.skippr.connect.cli.lake;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.common.Messages;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * Reads a connector's config through Connect's REST API ({@code GET /connectors/{name}/config}).
 */
public final class ConnectorConfigs {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http;
  private final Duration timeout;

  public ConnectorConfigs(Duration timeout) {
    this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    this.timeout = timeout;
  }

  /**
   * The connector's config as Connect stores it (externalised secrets stay placeholders).
   *
   * @throws LakeException when Connect cannot be reached or has no such connector
   */
  public Map<String, String> config(String connectUrl, String connector) {
    String base =
        connectUrl.endsWith("/") ? connectUrl.substring(0, connectUrl.length() - 1) : connectUrl;
    URI uri;
    try {
      uri =
          URI.create(
              base
                  + "/connectors/"
                  + URLEncoder.encode(connector, StandardCharsets.UTF_8).replace("+", "%20")
                  + "/config");
    } catch (IllegalArgumentException e) {
      throw new LakeException("--connect-url " + connectUrl + " is not a URL: " + e.getMessage());
    }
    HttpResponse<String> response;
    try {
      response =
          http.send(
              HttpRequest.newBuilder(uri).timeout(timeout).GET().build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new LakeException("cannot reach Connect at " + base + ": " + Messages.oneLine(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LakeException("interrupted while reading the connector's config", e);
    }
    if (response.statusCode() == 404) {
      throw new LakeException("Connect at " + base + " has no connector " + connector);
    }
    if (response.statusCode() != 200) {
      throw new LakeException(
          "GET " + uri + " answered " + response.statusCode() + ": " + message(response.body()));
    }
    try {
      return JSON.readValue(response.body(), new TypeReference<Map<String, String>>() {});
    } catch (IOException e) {
      throw new LakeException("GET " + uri + " did not return a connector config", e);
    }
  }

  private static String message(String body) {
    try {
      JsonNode node = JSON.readTree(body);
      if (node != null && node.hasNonNull("message")) {
        return node.get("message").asText();
      }
    } catch (IOException e) {
      // Not JSON: the body as it is.
    }
    return body.replaceAll("\\s+", " ").trim();
  }
}
