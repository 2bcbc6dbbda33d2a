package io.skippr.connect.source.lineprotocol;

/**
 * Per-line limits: a line over any of them is rejected with a reason.
 *
 * @param maxLineBytes bytes of one line
 * @param maxTags tags of one point
 * @param maxFields fields of one point
 * @param maxNameBytes bytes of a measurement name, tag key, tag value or field key (unescaped)
 * @param maxStringBytes bytes of one string field value (unescaped)
 */
public record LineLimits(
    int maxLineBytes, int maxTags, int maxFields, int maxNameBytes, int maxStringBytes) {

  /** The defaults of the HTTP ingest connector. */
  public static final LineLimits DEFAULT = new LineLimits(1024 * 1024, 256, 256, 1024, 256 * 1024);
}
