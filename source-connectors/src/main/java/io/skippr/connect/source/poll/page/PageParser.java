package io.skippr.connect.source.poll.page;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.skippr.connect.source.poll.http.Redaction;
import io.skippr.connect.source.poll.http.RequestFailure;
import io.skippr.connect.source.poll.http.Response;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a 2xx body as JSON and finds its records. A body that is not JSON, or has no array at
 * {@code records.pointer}, is a permanent failure naming the URL (redacted), status and reason: the
 * config and the API disagree, and retrying would not change that. An empty body (204) and {@code
 * null} at the pointer are an empty page.
 */
public final class PageParser {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String recordsPointer;
  private final JsonPointer pointer;

  public PageParser(String recordsPointer) {
    this.recordsPointer = recordsPointer;
    this.pointer = recordsPointer.isEmpty() ? null : JsonPointer.compile(recordsPointer);
  }

  public ParsedPage parse(Response response) throws RequestFailure {
    if (response.body().length == 0 || isBlank(response.body())) {
      return new ParsedPage(response, MissingNode.getInstance(), List.of());
    }
    JsonNode body;
    try {
      body = JSON.readTree(response.body());
    } catch (IOException e) {
      throw fail(response, "the body is not JSON (" + firstLine(e.getMessage()) + ")");
    }
    JsonNode array = pointer == null ? body : body.at(pointer);
    if (array.isMissingNode()) {
      throw fail(response, "the body has nothing at records.pointer=" + recordsPointer);
    }
    if (array.isNull()) {
      return new ParsedPage(response, body, List.of());
    }
    if (!array.isArray()) {
      throw fail(
          response,
          (pointer == null ? "the body" : "records.pointer=" + recordsPointer)
              + " is a JSON "
              + array.getNodeType().name().toLowerCase()
              + ", not an array of records");
    }
    List<JsonNode> records = new ArrayList<>(array.size());
    array.forEach(records::add);
    return new ParsedPage(response, body, records);
  }

  private static RequestFailure fail(Response response, String reason) {
    return RequestFailure.permanent(
        response.status(),
        Redaction.url(response.uri()) + " answered " + response.status() + ", but " + reason);
  }

  private static boolean isBlank(byte[] body) {
    for (byte b : body) {
      if (!Character.isWhitespace(b)) {
        return false;
      }
    }
    return true;
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unreadable";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}
