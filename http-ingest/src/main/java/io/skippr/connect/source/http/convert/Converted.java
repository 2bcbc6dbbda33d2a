package io.skippr.connect.source.http.convert;

import io.skippr.connect.source.http.delivery.TrackedRecord;

/** A row converted to a record, or the reason it was rejected (exactly one is set). */
public record Converted(TrackedRecord record, String rejection) {

  static Converted of(TrackedRecord record) {
    return new Converted(record, null);
  }

  static Converted rejected(String reason) {
    return new Converted(null, reason);
  }
}
