package io.skippr.connect.source.poll.http;

/**
 * What a failure message shows of text an API sent (an error body, an OAuth2 error description):
 * one line of at most 200 characters, line breaks and other control characters made spaces, so the
 * API can neither flood a log nor forge lines in it.
 */
public final class Excerpt {

  /** Longest excerpt, in characters. */
  public static final int MAX_CHARS = 200;

  private Excerpt() {}

  public static String of(String text) {
    StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_CHARS + 1));
    boolean space = false;
    for (int i = 0; i < text.length() && out.length() <= MAX_CHARS; i++) {
      char c = text.charAt(i);
      boolean blank = Character.isWhitespace(c) || Character.isISOControl(c);
      if (blank) {
        space = out.length() > 0;
      } else {
        if (space) {
          out.append(' ');
          space = false;
        }
        out.append(c);
      }
    }
    return out.length() > MAX_CHARS ? out.substring(0, MAX_CHARS) + "…" : out.toString();
  }
}
