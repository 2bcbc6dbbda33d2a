package io.skippr.connect.source.http;

/**
 * A rejected row of a request.
 *
 * @param kind "line" (line protocol, 1-based) or "item" (JSON, 0-based)
 * @param position the line number or item index
 * @param reason why it was rejected
 * @param input the row as received
 */
public record RejectedRow(String kind, long position, String reason, String input) {}
