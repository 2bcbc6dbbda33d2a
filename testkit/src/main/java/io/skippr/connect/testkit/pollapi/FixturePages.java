package io.skippr.connect.testkit.pollapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The fixture's listings, one per pagination style. Each lists {@link FixtureItems} at or after
 * {@code since} in (updated_at, id) order:
 *
 * <ul>
 *   <li>{@code GET /cursor/items?since=&limit=}: a JSON array of the first {@code limit} records
 *       (no pagination);
 *   <li>{@code GET /link/items?since=&limit=&page=}: a JSON array, and a {@code Link} header with
 *       {@code rel="next"} (absolute URL) while more pages follow;
 *   <li>{@code GET /nexturl/items?since=&limit=&offset=}: {@code {"data":[…],
 *       "paging":{"next":"/nexturl/items?…"|null}}} (a relative URL);
 *   <li>{@code GET /token/items?since=&limit=&page_token=}: {@code {"items":[…],
 *       "next_page_token":"…"}} (a keyset token, absent on the last page);
 *   <li>{@code GET /page/items?since=&per_page=&page=}: {@code {"results":[…]}}, pages from 1, an
 *       empty page after the last;
 *   <li>{@code GET /offset/items?since=&offset=&limit=}: {@code {"records":[…],"total":n}};
 *   <li>{@code POST /search} with {@code {"since":…,"page_token":…,"limit":n}}: {@code
 *       {"hits":{"items":[…]},"next":"…"|null}} (token pagination in the body).
 * </ul>
 */
final class FixturePages {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A page: JSON body and optional Link header. */
  record Page(String body, String link) {}

  private final FixtureItems items;
  private final String base;

  FixturePages(FixtureItems items, String base) {
    this.items = items;
    this.base = base;
  }

  /** The page of a listing path, or null for an unknown path. */
  Page page(String path, Map<String, String> query, String body) {
    String since = query.get("since");
    return switch (path) {
      case "/cursor/items" ->
          new Page(array(slice(items.since(since), 0, limit(query, 100))), null);
      case "/link/items" -> link(since, query);
      case "/nexturl/items" -> nextUrl(since, query);
      case "/token/items" ->
          token(since, limit(query, 10), query.get("page_token"), "items", false);
      case "/page/items" -> {
        int perPage = intParam(query, "per_page", 10);
        int page = intParam(query, "page", 1);
        ObjectNode out = JSON.createObjectNode();
        out.set("results", arrayNode(slice(items.since(since), (page - 1) * perPage, perPage)));
        yield new Page(out.toString(), null);
      }
      case "/offset/items" -> {
        List<ObjectNode> all = items.since(since);
        ObjectNode out = JSON.createObjectNode();
        out.set("records", arrayNode(slice(all, intParam(query, "offset", 0), limit(query, 10))));
        out.put("total", all.size());
        yield new Page(out.toString(), null);
      }
      case "/search" -> search(body);
      default -> null;
    };
  }

  private Page link(String since, Map<String, String> query) {
    int limit = limit(query, 10);
    int page = intParam(query, "page", 1);
    List<ObjectNode> all = items.since(since);
    String link = null;
    if ((long) page * limit < all.size()) {
      String next =
          base + "/link/items?since=" + enc(since) + "&limit=" + limit + "&page=" + (page + 1);
      link = "<" + base + "/link/items?page=1>; rel=\"first\", <" + next + ">; rel=\"next\"";
    }
    return new Page(array(slice(all, (page - 1) * limit, limit)), link);
  }

  private Page nextUrl(String since, Map<String, String> query) {
    int limit = limit(query, 10);
    int offset = intParam(query, "offset", 0);
    List<ObjectNode> all = items.since(since);
    ObjectNode out = JSON.createObjectNode();
    out.set("data", arrayNode(slice(all, offset, limit)));
    ObjectNode paging = out.putObject("paging");
    if (offset + limit < all.size()) {
      paging.put(
          "next",
          "/nexturl/items?since=" + enc(since) + "&limit=" + limit + "&offset=" + (offset + limit));
    } else {
      paging.putNull("next");
    }
    return new Page(out.toString(), null);
  }

  private Page token(String since, int limit, String token, String field, boolean search) {
    List<ObjectNode> list;
    if (token == null || token.isEmpty()) {
      list = items.since(since);
    } else {
      String[] keyset =
          new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8).split("\\|");
      list = items.after(keyset[0], Long.parseLong(keyset[1]));
    }
    List<ObjectNode> page = slice(list, 0, limit);
    String next = null;
    if (list.size() > limit) {
      String keyset = items.keyset(page.get(page.size() - 1));
      next = Base64.getUrlEncoder().encodeToString(keyset.getBytes(StandardCharsets.UTF_8));
    }
    ObjectNode out = JSON.createObjectNode();
    if (search) {
      out.putObject("hits").set(field, arrayNode(page));
      out.put("next", next);
    } else {
      out.set(field, arrayNode(page));
      if (next != null) {
        out.put("next_page_token", next);
      }
    }
    return new Page(out.toString(), null);
  }

  private Page search(String body) {
    try {
      JsonNode request = JSON.readTree(body == null || body.isEmpty() ? "{}" : body);
      String since = request.path("since").asText(null);
      String token = request.path("page_token").asText(null);
      return token(since, request.path("limit").asInt(10), token, "items", true);
    } catch (java.io.IOException e) {
      return new Page("{\"error\":\"body is not JSON\"}", null);
    }
  }

  private static List<ObjectNode> slice(List<ObjectNode> all, int from, int count) {
    if (from >= all.size() || from < 0) {
      return List.of();
    }
    return all.subList(from, Math.min(all.size(), from + count));
  }

  private static String array(List<ObjectNode> items) {
    return arrayNode(items).toString();
  }

  private static ArrayNode arrayNode(List<ObjectNode> items) {
    ArrayNode array = JSON.createArrayNode();
    items.forEach(array::add);
    return array;
  }

  private static int limit(Map<String, String> query, int fallback) {
    return intParam(query, "limit", fallback);
  }

  private static int intParam(Map<String, String> query, String name, int fallback) {
    String value = query.get(name);
    return value == null || value.isEmpty() ? fallback : Integer.parseInt(value);
  }

  private static String enc(String value) {
    return value == null ? "" : URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
