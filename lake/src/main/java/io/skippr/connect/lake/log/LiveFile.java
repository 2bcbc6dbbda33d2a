package io.skippr.connect.lake.log;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A committed lake file.
 *
 * @param key the object key
 * @param rows the number of rows in the file
 * @param bytes the file size
 * @param sha256 hex digest of the file content
 * @param schemaFingerprint fingerprint of the file's schema
 * @param committedAtMs when its unit (or merge, for the newest of its inputs) committed, wall
 *     clock; null in files committed before the lake recorded it
 */
public record LiveFile(
    String key,
    long rows,
    long bytes,
    String sha256,
    String schemaFingerprint,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long committedAtMs) {

  /** A file without its commit time. */
  public LiveFile(String key, long rows, long bytes, String sha256, String schemaFingerprint) {
    this(key, rows, bytes, sha256, schemaFingerprint, null);
  }
}
