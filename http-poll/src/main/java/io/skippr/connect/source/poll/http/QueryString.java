package io.skippr.connect.source.poll.http;

import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Query parameters: parsing {@code k=v&k2=v2} and appending encoded pairs to a URI. */
public final class QueryString {

  private QueryString() {}

  /** The pairs of {@code k=v&k2=v2}, decoded (so already-encoded input is not encoded twice). */
  public static List<Map.Entry<String, String>> parse(String text) {
    List<Map.Entry<String, String>> pairs = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return pairs;
    }
    for (String part : text.split("&")) {
      if (part.isEmpty()) {
        continue;
      }
      int eq = part.indexOf('=');
      String key = eq < 0 ? part : part.substring(0, eq);
      String value = eq < 0 ? "" : part.substring(eq + 1);
      pairs.add(Map.entry(decode(key), decode(value)));
    }
    return pairs;
  }

  /** The URI with the pairs appended to its query (an existing query is kept). */
  public static URI append(URI uri, List<Map.Entry<String, String>> pairs) {
    if (pairs.isEmpty()) {
      return uri;
    }
    StringBuilder query = new StringBuilder();
    String existing = uri.getRawQuery();
    if (existing != null && !existing.isEmpty()) {
      query.append(existing);
    }
    for (Map.Entry<String, String> pair : pairs) {
      if (query.length() > 0) {
        query.append('&');
      }
      query.append(encode(pair.getKey())).append('=').append(encode(pair.getValue()));
    }
    String text = uri.toString();
    int cut = text.indexOf('?');
    int hash = text.indexOf('#');
    String base = cut >= 0 ? text.substring(0, cut) : hash >= 0 ? text.substring(0, hash) : text;
    String fragment = hash >= 0 ? text.substring(hash) : "";
    return URI.create(base + "?" + query + fragment);
  }

  /** Percent-encodes for a query value or path part (space as %20, not '+'). */
  public static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String decode(String value) {
    try {
      return URLDecoder.decode(value, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return value; // a stray '%': take it literally
    }
  }
}
