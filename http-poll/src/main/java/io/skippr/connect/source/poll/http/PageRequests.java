package io.skippr.connect.source.poll.http;

import io.skippr.connect.source.poll.config.EndpointSettings;
import io.skippr.connect.source.poll.config.PaginationConfig;
import io.skippr.connect.source.poll.config.PaginationConfig.Mode;
import io.skippr.connect.source.poll.config.RequestConfig;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Builds the request for one page of a pass from the endpoint's templates. A page reference of
 * {@code next_link}/{@code next_url} mode is the server's own URL and is requested as it is; other
 * references fill the {@code ${token}}, {@code ${page}} or {@code ${offset}} placeholders and
 * parameters of the first page's URL.
 */
public final class PageRequests {

  private final EndpointSettings settings;
  private final List<Map.Entry<String, String>> headers;
  private final List<Map.Entry<String, String>> staticParams;

  public PageRequests(EndpointSettings settings) {
    this.settings = settings;
    this.headers = HeaderLines.parse(RequestConfig.HEADERS, settings.request().headers());
    this.staticParams = QueryString.parse(settings.request().params());
  }

  /**
   * The request for a page, without credentials.
   *
   * @param passCursor the cursor of the pass, null when none is sent
   * @param next the page reference, null for the first page of the pass
   */
  public HttpRequest.Builder request(String passCursor, String next) {
    URI uri = uri(passCursor, next);
    RequestConfig.Values r = settings.request();
    HttpRequest.Builder b = HttpExchanger.newRequest(uri, r.timeoutMs());
    b.header("Accept", "application/json");
    headers.forEach(h -> b.header(h.getKey(), h.getValue()));
    if (r.method().equals("POST")) {
      String body = fill(r.body(), placeholders(passCursor, next), PageRequests::jsonEscape);
      b.header("Content-Type", "application/json");
      b.POST(HttpRequest.BodyPublishers.ofString(body));
    } else {
      b.GET();
    }
    return b;
  }

  /** The URL of a page. */
  public URI uri(String passCursor, String next) {
    Mode mode = settings.pagination().mode();
    if (next != null && (mode == Mode.NEXT_LINK || mode == Mode.NEXT_URL)) {
      return URI.create(next);
    }
    Map<String, String> values = placeholders(passCursor, next);
    String template = settings.request().url();
    URI base = URI.create(fill(template, values, QueryString::encode));
    List<Map.Entry<String, String>> params = new ArrayList<>(staticParams);
    String cursorParam = settings.cursor().param();
    if (!cursorParam.isEmpty() && passCursor != null && !template.contains("${cursor}")) {
      params.add(Map.entry(cursorParam, passCursor));
    }
    paginationParams(template, next, values, params);
    return QueryString.append(base, params);
  }

  private void paginationParams(
      String template,
      String next,
      Map<String, String> values,
      List<Map.Entry<String, String>> params) {
    PaginationConfig.Values p = settings.pagination();
    switch (p.mode()) {
      case TOKEN -> {
        if (next != null) {
          addUnlessInTemplate(template, p.tokenParam(), "token", values, params);
        }
      }
      case PAGE -> {
        addUnlessInTemplate(template, p.pageParam(), "page", values, params);
        addUnlessInTemplate(template, p.limitParam(), "limit", values, params);
      }
      case OFFSET -> {
        addUnlessInTemplate(template, p.offsetParam(), "offset", values, params);
        addUnlessInTemplate(template, p.limitParam(), "limit", values, params);
      }
      default -> {
        // none, next_link, next_url: the first page carries no pagination parameter
      }
    }
  }

  private static void addUnlessInTemplate(
      String template,
      String param,
      String placeholder,
      Map<String, String> values,
      List<Map.Entry<String, String>> params) {
    if (!param.isEmpty() && !template.contains("${" + placeholder + "}")) {
      params.add(Map.entry(param, values.get(placeholder)));
    }
  }

  private Map<String, String> placeholders(String passCursor, String next) {
    PaginationConfig.Values p = settings.pagination();
    Map<String, String> values = new LinkedHashMap<>();
    values.put("cursor", passCursor == null ? "" : passCursor);
    values.put("token", p.mode() == Mode.TOKEN && next != null ? next : "");
    values.put("page", p.mode() == Mode.PAGE && next != null ? next : Long.toString(p.pageStart()));
    values.put("offset", p.mode() == Mode.OFFSET && next != null ? next : "0");
    values.put("limit", Long.toString(p.limit()));
    return values;
  }

  private static String fill(
      String template, Map<String, String> values, UnaryOperator<String> escape) {
    String out = template;
    for (Map.Entry<String, String> v : values.entrySet()) {
      out = out.replace("${" + v.getKey() + "}", escape.apply(v.getValue()));
    }
    return out;
  }

  /** The characters a JSON string needs escaped (the template supplies the quotes). */
  static String jsonEscape(String value) {
    StringBuilder out = new StringBuilder(value.length() + 8);
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
