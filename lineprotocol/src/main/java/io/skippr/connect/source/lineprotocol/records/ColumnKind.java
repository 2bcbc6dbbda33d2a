package io.skippr.connect.source.lineprotocol.records;

import io.skippr.connect.source.lineprotocol.FieldType;
import org.apache.kafka.connect.data.Schema;

/** The column a tag or field becomes in a measurement's value schema. */
public enum ColumnKind {
  TAG("a tag", Schema.OPTIONAL_STRING_SCHEMA),
  DOUBLE("a float field", Schema.OPTIONAL_FLOAT64_SCHEMA),
  /** Both {@code i} and {@code u} integers: unsigned values above Long.MAX_VALUE are rejected. */
  LONG("an integer field", Schema.OPTIONAL_INT64_SCHEMA),
  BOOLEAN("a boolean field", Schema.OPTIONAL_BOOLEAN_SCHEMA),
  STRING("a string field", Schema.OPTIONAL_STRING_SCHEMA);

  /** How a reason names the column kind, with its article. */
  final String label;

  final Schema schema;

  ColumnKind(String label, Schema schema) {
    this.label = label;
    this.schema = schema;
  }

  static ColumnKind of(FieldType type) {
    return switch (type) {
      case FLOAT -> DOUBLE;
      case INTEGER, UINTEGER -> LONG;
      case BOOLEAN -> BOOLEAN;
      case STRING -> STRING;
    };
  }
}
