package io.skippr.connect.source.poll.http;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code rel="next"} target of {@code Link} headers (RFC 8288), as GitHub and others send. */
public final class LinkHeader {

  private static final Pattern LINK = Pattern.compile("<([^>]*)>((?:\\s*;\\s*[^;,]+)*)");
  private static final Pattern REL =
      Pattern.compile("(?i)rel\\s*=\\s*(?:\"([^\"]*)\"|([^\\s;,\"]+))");

  private LinkHeader() {}

  /** The URI reference of the first link with relation {@code next}, in header order. */
  public static Optional<String> next(List<String> headerValues) {
    for (String value : headerValues) {
      Matcher link = LINK.matcher(value);
      while (link.find()) {
        Matcher rel = REL.matcher(link.group(2));
        while (rel.find()) {
          String rels = rel.group(1) != null ? rel.group(1) : rel.group(2);
          for (String r : rels.trim().split("\\s+")) {
            if (r.toLowerCase(Locale.ROOT).equals("next")) {
              return Optional.of(link.group(1).trim());
            }
          }
        }
      }
    }
    return Optional.empty();
  }
}
