package io.skippr.connect.source.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.source.common.Texts;
import java.util.List;

/**
 * Response bodies that both InfluxDB v1 clients (which read {@code error}) and v2/v3 clients (which
 * read {@code code} and {@code message}) understand.
 */
public final class Responses {

  /** Most rejections listed in one response; all of them go to the rejection topic. */
  public static final int MAX_LISTED_REJECTIONS = 1000;

  /** Characters of input shown per rejection in a response. */
  public static final int INPUT_PREVIEW_CHARS = 256;

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Responses() {}

  public static WriteResult noContent() {
    return new WriteResult(204, null, false);
  }

  public static WriteResult error(int status, String code, String message) {
    boolean retry = status == 429 || status == 503;
    return new WriteResult(status, errorBody(code, message).toString(), retry);
  }

  public static WriteResult partial(int accepted, List<RejectedRow> rejected, String message) {
    ObjectNode body = errorBody("invalid", message);
    body.put("accepted", accepted);
    body.put("rejected", rejected.size());
    ArrayNode list = body.putArray("rejections");
    for (RejectedRow row : rejected.subList(0, Math.min(rejected.size(), MAX_LISTED_REJECTIONS))) {
      ObjectNode r = list.addObject();
      r.put(row.kind(), row.position());
      r.put("reason", row.reason());
      r.put("input", Texts.preview(row.input().text(), INPUT_PREVIEW_CHARS));
    }
    body.put("rejections_truncated", rejected.size() > MAX_LISTED_REJECTIONS);
    return new WriteResult(400, body.toString(), false);
  }

  private static ObjectNode errorBody(String code, String message) {
    ObjectNode body = MAPPER.createObjectNode();
    body.put("code", code);
    body.put("message", message);
    body.put("error", message);
    return body;
  }
}
