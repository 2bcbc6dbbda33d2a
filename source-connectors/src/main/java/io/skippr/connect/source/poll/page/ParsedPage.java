package io.skippr.connect.source.poll.page;

import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.connect.source.poll.http.Response;
import java.util.List;

/**
 * A response read as a page: its JSON body and the records at {@code records.pointer}, in listed
 * order.
 */
public record ParsedPage(Response response, JsonNode body, List<JsonNode> records) {}
