package io.skippr.connect.state.api;

import java.util.Locale;

/** What a row holds; the first part of its key, {@code {kind}#{id}}. */
public enum StateKind {
  /** Source offsets, in Connect's own encoding. */
  OFFSET,
  /** Sink progress per topic-partition. */
  PROGRESS,
  /** Leases guarded by a heartbeat counter. */
  LEASE,
  /** Secrets such as OAuth refresh tokens; encrypted at rest. */
  SECRET,
  /** Lake changes registered in another catalog (Iceberg), one row per table and change id. */
  REGISTRATION,
  /**
   * What a push source has accepted so far and must keep accepting the same way: the topic each
   * name maps to and the type of each field (HTTP ingest).
   */
  CATALOG;

  private final String prefix = name().toLowerCase(Locale.ROOT) + "#";

  /** The key prefix of every row of this kind, e.g. {@code progress#}. */
  public String prefix() {
    return prefix;
  }

  /** The key prefix of rows of this kind whose id starts with {@code idPrefix}. */
  public String prefix(String idPrefix) {
    return prefix + idPrefix;
  }

  /** The kind of an encoded key such as {@code offset#...}. */
  public static StateKind ofKey(String encodedKey) {
    for (StateKind kind : values()) {
      if (encodedKey.startsWith(kind.prefix)) {
        return kind;
      }
    }
    throw new IllegalArgumentException("state key '" + encodedKey + "' has no known kind prefix");
  }
}
