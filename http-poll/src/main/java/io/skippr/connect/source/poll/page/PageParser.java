package io.skippr.connect.source.poll.page;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.skippr.connect.source.poll.http.Response;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a 2xx body as JSON and finds its records. A body that is not JSON (or beyond Jackson's
 * limits: nesting deeper than 1,000, numbers longer than 1,000 digits), or has no array at {@code
 * records.pointer}, is an unusable page with the reason: it is rejected as a whole, never a task
 * failure. An empty body (204) and {@code null} at the pointer are an empty page.
 */
public final class PageParser {

  /**
   * Decimals as exact BigDecimals (trailing zeros kept): a cursor such as 1700000000.120 goes back
   * to the API and into the offset with its own digits, not as a double's 1.70000000012E9.
   */
  private static final ObjectMapper JSON =
      JsonMapper.builder()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
          .build();

  private static final ObjectMapper DOUBLES = new ObjectMapper();

  private final String recordsPointer;
  private final JsonPointer pointer;

  public PageParser(String recordsPointer) {
    this.recordsPointer = recordsPointer;
    this.pointer = recordsPointer.isEmpty() ? null : JsonPointer.compile(recordsPointer);
  }

  public ParsedPage parse(Response response) {
    if (response.body().length == 0 || isBlank(response.body())) {
      return new ParsedPage(response, MissingNode.getInstance(), List.of());
    }
    JsonNode body;
    try {
      body = read(response.body());
    } catch (IOException e) {
      String why = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
      return ParsedPage.unusable(response, "the body is not JSON (" + firstLine(why) + ")");
    }
    JsonNode array = pointer == null ? body : body.at(pointer);
    if (array.isMissingNode()) {
      return ParsedPage.unusable(
          response, "the body has nothing at records.pointer=" + recordsPointer);
    }
    if (array.isNull()) {
      return new ParsedPage(response, body, List.of());
    }
    if (!array.isArray()) {
      return ParsedPage.unusable(
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

  /**
   * The body's tree; a page with a number no BigDecimal holds (1e999999999999) is read with
   * doubles, so that number is infinite and only its record is rejected.
   */
  private static JsonNode read(byte[] body) throws IOException {
    try {
      return JSON.readTree(body);
    } catch (NumberFormatException e) {
      return DOUBLES.readTree(body);
    }
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
