package io.skippr.connect.source.http;

import io.skippr.connect.source.http.convert.RejectionRecords;

/**
 * A rejected row of a request.
 *
 * @param kind "line" (line protocol, 1-based) or "item" (JSON, 0-based)
 * @param position the line number or item index
 * @param reason why it was rejected, cut to {@link RejectionRecords#MAX_REASON_BYTES}
 * @param input the row as received, cut to {@code limits.rejection.input.max.bytes}
 */
public record RejectedRow(String kind, long position, String reason, RejectionRecords.Kept input) {

  public RejectedRow {
    reason = RejectionRecords.reason(reason);
  }
}
