package io.skippr.connect.schema;

import java.util.Objects;

/**
 * Something inference could not decide cleanly, kept in the contract for a human to review.
 *
 * @param path the field path: {@code a.b} for nested fields, {@code a[]} for array elements, {@code
 *     a{}} for map values; empty for the root
 * @param kind what happened
 * @param detail for type conflicts the comma-separated types seen, e.g. {@code int64,string}
 */
public record SchemaFlag(String path, Kind kind, String detail) {

  /** The kinds of flags. */
  public enum Kind {
    /** Values of incompatible types were seen; the field became a string. */
    TYPE_CONFLICT("type-conflict"),
    /** Only nulls were seen; the field is an optional string until a value shows its type. */
    NULL_ONLY("null-only");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    /** The name used in contract JSON. */
    public String label() {
      return label;
    }

    /** Parses a contract JSON label. */
    public static Kind fromLabel(String label) {
      for (Kind kind : values()) {
        if (kind.label.equals(label)) {
          return kind;
        }
      }
      throw new IllegalArgumentException("unknown schema flag kind: " + label);
    }
  }

  public SchemaFlag {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(detail, "detail");
  }
}
