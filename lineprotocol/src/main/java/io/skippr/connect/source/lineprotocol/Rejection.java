package io.skippr.connect.source.lineprotocol;

/**
 * A line that could not be accepted.
 *
 * @param line 1-based line number within the body
 * @param reason why, including the 1-based column where the problem was found when known
 * @param text the line as received (possibly cut to the parser's line limit)
 */
public record Rejection(int line, String reason, String text) implements LineResult {}
