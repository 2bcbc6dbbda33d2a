package io.skippr.connect.source.http.convert;

import io.skippr.connect.source.lineprotocol.FieldType;
import org.apache.kafka.connect.data.Schema;

/** The column a tag or field becomes in a measurement's value schema. */
enum ColumnKind {
  TAG("tag", Schema.OPTIONAL_STRING_SCHEMA),
  DOUBLE("float", Schema.OPTIONAL_FLOAT64_SCHEMA),
  /** Both {@code i} and {@code u} integers: unsigned values above Long.MAX_VALUE are rejected. */
  LONG("integer", Schema.OPTIONAL_INT64_SCHEMA),
  BOOLEAN("boolean", Schema.OPTIONAL_BOOLEAN_SCHEMA),
  STRING("string", Schema.OPTIONAL_STRING_SCHEMA);

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
