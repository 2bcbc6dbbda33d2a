package io.skippr.connect.source.common;

/** Cutting text to a size without splitting a character. */
public final class Texts {

  private Texts() {}

  /** The longest prefix of {@code text} whose UTF-8 form has at most {@code maxBytes} bytes. */
  public static String cut(String text, int maxBytes) {
    int bytes = 0;
    int i = 0;
    while (i < text.length()) {
      int cp = text.codePointAt(i);
      int len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (bytes + len > maxBytes) {
        break;
      }
      bytes += len;
      i += Character.charCount(cp);
    }
    return text.substring(0, i);
  }

  /** At most {@code maxChars} characters, with "…" when cut (for response bodies). */
  public static String preview(String text, int maxChars) {
    if (text == null || text.length() <= maxChars) {
      return text;
    }
    int cut = maxChars;
    if (Character.isHighSurrogate(text.charAt(cut - 1))) {
      cut--;
    }
    return text.substring(0, cut) + "\u2026";
  }
}
