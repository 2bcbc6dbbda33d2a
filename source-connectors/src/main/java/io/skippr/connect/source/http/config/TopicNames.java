package io.skippr.connect.source.http.config;

/** Kafka's topic name rules. */
public final class TopicNames {

  /** Longest legal topic name. */
  public static final int MAX_LENGTH = 249;

  private TopicNames() {}

  public static boolean isLegal(String name) {
    if (name.isEmpty() || name.length() > MAX_LENGTH || name.equals(".") || name.equals("..")) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      if (!isLegal(name.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** Replaces every character a topic name cannot hold by '_'. */
  public static String sanitize(String name) {
    StringBuilder sb = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      sb.append(isLegal(c) ? c : '_');
    }
    return sb.toString();
  }

  private static boolean isLegal(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '.'
        || c == '_'
        || c == '-';
  }
}
