package io.skippr.connect.source.poll.http;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code rel="next"} target of {@code Link} headers (RFC 8288), as GitHub and others send. The
 * header is read by its grammar, so a quoted parameter value ({@code title="a; rel=next, <x>"})
 * never passes for a parameter or a link of its own; only the first {@code rel} of a link counts.
 */
public final class LinkHeader {

  private final String text;
  private int at;

  private LinkHeader(String text) {
    this.text = text;
  }

  /** The URI reference of the first link with relation {@code next}, in header order. */
  public static Optional<String> next(List<String> headerValues) {
    for (String value : headerValues) {
      Optional<String> next = new LinkHeader(value).firstNext();
      if (next.isPresent()) {
        return next;
      }
    }
    return Optional.empty();
  }

  private Optional<String> firstNext() {
    while (at < text.length()) {
      char c = text.charAt(at);
      if (c == ' ' || c == '\t' || c == ',') {
        at++;
        continue;
      }
      if (c != '<') {
        skipValue(); // a link-value that does not start with <
        continue;
      }
      int close = text.indexOf('>', at + 1);
      if (close < 0) {
        return Optional.empty();
      }
      String uri = text.substring(at + 1, close).trim();
      at = close + 1;
      String rel = relation();
      if (rel != null) {
        for (String r : rel.trim().split("\\s+")) {
          if (r.toLowerCase(Locale.ROOT).equals("next")) {
            return Optional.of(uri);
          }
        }
      }
    }
    return Optional.empty();
  }

  /** Reads the link's parameters up to the ',' that ends it; the value of its first rel. */
  private String relation() {
    String rel = null;
    while (at < text.length()) {
      char c = text.charAt(at);
      if (c == ',') {
        at++;
        return rel;
      }
      if (c != ';') {
        skip(c);
        continue;
      }
      at++;
      String name = token().toLowerCase(Locale.ROOT);
      spaces();
      String value = "";
      if (at < text.length() && text.charAt(at) == '=') {
        at++;
        spaces();
        value = at < text.length() && text.charAt(at) == '"' ? quoted() : token();
      }
      if (name.equals("rel") && rel == null) {
        rel = value;
      }
    }
    return rel;
  }

  /** Skips one character outside a parameter, or a whole quoted string. */
  private void skip(char c) {
    if (c == '"') {
      quoted();
    } else {
      at++;
    }
  }

  /** Skips to the ',' after a link-value that is not one, outside quoted strings. */
  private void skipValue() {
    while (at < text.length() && text.charAt(at) != ',') {
      skip(text.charAt(at));
    }
    at++;
  }

  private String token() {
    spaces();
    int start = at;
    while (at < text.length() && "=;,\" \t".indexOf(text.charAt(at)) < 0) {
      at++;
    }
    return text.substring(start, at);
  }

  /** A quoted string from its opening quote: its content with escapes undone. */
  private String quoted() {
    StringBuilder out = new StringBuilder();
    at++;
    while (at < text.length()) {
      char c = text.charAt(at++);
      if (c == '"') {
        break;
      }
      if (c == '\\' && at < text.length()) {
        c = text.charAt(at++);
      }
      out.append(c);
    }
    return out.toString();
  }

  private void spaces() {
    while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) {
      at++;
    }
  }
}
