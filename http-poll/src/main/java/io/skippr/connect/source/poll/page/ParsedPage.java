package io.skippr.connect.source.poll.page;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.skippr.connect.source.poll.http.Response;
import java.util.List;

/**
 * A response read as a page: its JSON body and the records at {@code records.pointer}, in listed
 * order; or, for a body that cannot be read as a page, why ({@code problem}, with no records).
 */
public record ParsedPage(Response response, JsonNode body, List<JsonNode> records, String problem) {

  /** A page of records. */
  public ParsedPage(Response response, JsonNode body, List<JsonNode> records) {
    this(response, body, records, null);
  }

  /** A 2xx answer whose body is no page: it is rejected as a whole and its pass ends. */
  public static ParsedPage unusable(Response response, String problem) {
    return new ParsedPage(response, MissingNode.getInstance(), List.of(), problem);
  }

  public boolean usable() {
    return problem == null;
  }
}
