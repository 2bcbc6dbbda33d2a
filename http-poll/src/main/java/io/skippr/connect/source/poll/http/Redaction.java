package io.skippr.connect.source.poll.http;

import java.net.URI;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * URLs for log lines and error messages: user info and the values of query parameters whose name
 * suggests a secret ({@code access_token}, {@code api_key}, {@code signature}, ...) become {@code
 * ***}.
 */
public final class Redaction {

  private static final Pattern SECRET_NAME =
      Pattern.compile(
          ".*(token|key|secret|password|passwd|pwd|signature|sig|auth|credential|code|session).*");

  private Redaction() {}

  public static String url(URI uri) {
    if (uri == null) {
      return "(no URL)";
    }
    StringBuilder out = new StringBuilder();
    if (uri.getScheme() != null) {
      out.append(uri.getScheme()).append("://");
    }
    if (uri.getRawUserInfo() != null) {
      out.append("***@");
    }
    if (uri.getHost() != null) {
      out.append(uri.getHost());
    }
    if (uri.getPort() >= 0) {
      out.append(':').append(uri.getPort());
    }
    if (uri.getRawPath() != null) {
      out.append(uri.getRawPath());
    }
    if (uri.getRawQuery() != null) {
      out.append('?').append(query(uri.getRawQuery()));
    }
    return out.toString();
  }

  private static String query(String raw) {
    StringBuilder out = new StringBuilder();
    for (String part : raw.split("&", -1)) {
      if (out.length() > 0) {
        out.append('&');
      }
      int eq = part.indexOf('=');
      String name = eq < 0 ? part : part.substring(0, eq);
      if (eq >= 0 && SECRET_NAME.matcher(name.toLowerCase(Locale.ROOT)).matches()) {
        out.append(name).append("=***");
      } else {
        out.append(part);
      }
    }
    return out.toString();
  }
}
