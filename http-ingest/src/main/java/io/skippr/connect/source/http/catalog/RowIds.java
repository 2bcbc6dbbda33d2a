package io.skippr.connect.source.http.catalog;

import io.skippr.connect.common.Sha256;
import io.skippr.connect.source.common.TopicNames;

/** Ids of the catalog rows that belong to one name. */
final class RowIds {

  /** Longer ids are hashed: a state key has at most 1024 bytes, kind prefix included. */
  private static final int MAX_NAME_CHARS = 900;

  private RowIds() {}

  /**
   * {@code {what}/{name as a topic name part}}: ASCII without NUL (which a state key cannot hold)
   * and injective, or {@code {what}/sha256:{hex}} for very long names.
   */
  static String of(String what, String name) {
    String encoded = TopicNames.forName(name);
    if (encoded.length() > MAX_NAME_CHARS) {
      encoded = "sha256:" + Sha256.hex(name);
    }
    return what + "/" + encoded;
  }
}
