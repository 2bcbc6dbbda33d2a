package io.skippr.connect.source.poll.config;

import java.util.Locale;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.types.Password;

/** What one request of an endpoint looks like. */
public final class RequestConfig {

  public static final String URL = "http.url";
  public static final String METHOD = "http.method";
  public static final String BODY = "http.body";
  public static final String HEADERS = "http.headers";
  public static final String PARAMS = "http.params";
  public static final String TIMEOUT_MS = "http.timeout.ms";
  public static final String MAX_RESPONSE_BYTES = "http.max.response.bytes";

  /** The request settings; {@code headers} may hold API keys and is never printed. */
  public record Values(
      String url,
      String method,
      String body,
      String headers,
      String params,
      long timeoutMs,
      long maxResponseBytes) {
    @Override
    public String toString() {
      return "Values[url=" + url + ", method=" + method + ", headers=[hidden]]";
    }
  }

  private RequestConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            URL,
            Type.STRING,
            "",
            Validators.URL_OR_EMPTY,
            Importance.HIGH,
            "Endpoint URL, e.g. https://api.example.com/v1/orders. ${cursor} in it is replaced by"
                + " the URL-encoded cursor (then cursor.param is not sent); ${token}, ${page},"
                + " ${offset} and ${limit} by the pagination values. Required (here or per"
                + " endpoint).")
        .define(
            METHOD,
            Type.STRING,
            "GET",
            Validators.oneOf("GET", "POST"),
            Importance.MEDIUM,
            "GET, or POST with http.body as the request body.")
        .define(
            BODY,
            Type.STRING,
            "",
            Importance.LOW,
            "Body template for POST, sent as application/json. The placeholders of http.url are"
                + " replaced by their values escaped for a JSON string, e.g."
                + " {\"since\":\"${cursor}\",\"page_token\":\"${token}\"}.")
        .define(
            HEADERS,
            Type.PASSWORD,
            "",
            Importance.MEDIUM,
            "Extra request headers, 'Name: value', separated by newlines or commas (a comma"
                + " followed by 'Other-Name:' starts a new header, so values may hold commas)."
                + " Hidden in logs, as it often carries API keys.")
        .define(
            PARAMS,
            Type.STRING,
            "",
            Importance.MEDIUM,
            "Static query parameters, 'k=v&k2=v2', added to every request built from http.url"
                + " (values are URL-encoded when sent); next_link and next_url pages are requested"
                + " as the server linked them.")
        .define(
            TIMEOUT_MS,
            Type.LONG,
            30_000L,
            Range.between(1, 3_600_000),
            Importance.LOW,
            "Longest wait for one response (connecting, headers and body); longer counts as an"
                + " I/O error and is retried.")
        .define(
            MAX_RESPONSE_BYTES,
            Type.LONG,
            64L << 20,
            Range.atLeast(1024),
            Importance.LOW,
            "Largest response body (after gzip decompression); a larger one fails the task with"
                + " the URL and size. Lower the page size of the API to stay below it.");
  }

  public static Values from(AbstractConfig c) {
    Password headers = c.getPassword(HEADERS);
    return new Values(
        c.getString(URL).trim(),
        c.getString(METHOD).toUpperCase(Locale.ROOT),
        c.getString(BODY),
        headers == null ? "" : headers.value(),
        c.getString(PARAMS).trim(),
        c.getLong(TIMEOUT_MS),
        c.getLong(MAX_RESPONSE_BYTES));
  }
}
