package io.skippr.connect.common;

/** Error messages as a command line prints them. */
public final class Messages {
  private Messages() {}

  /**
   * The message of a throwable on one line: its own, else that of its first cause that has one,
   * else its class name.
   */
  public static String oneLine(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getMessage() == null) {
      root = root.getCause();
    }
    String message = root.getMessage() != null ? root.getMessage() : root.toString();
    return message.replaceAll("\\s+", " ").trim();
  }
}
