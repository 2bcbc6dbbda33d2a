package io.skippr.connect.sink.log;

/**
 * A committed lake file.
 *
 * @param key the object key
 * @param rows the number of rows in the file
 * @param bytes the file size
 * @param sha256 hex digest of the file content
 * @param schemaFingerprint fingerprint of the file's schema
 */
public record LiveFile(
    String key, long rows, long bytes, String sha256, String schemaFingerprint) {}
