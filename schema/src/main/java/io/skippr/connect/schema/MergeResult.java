package io.skippr.connect.schema;

import java.util.List;
import org.apache.kafka.connect.data.Schema;

/**
 * The result of merging two inferred schemas.
 *
 * @param schema the merged schema (optional, like every inferred schema)
 * @param flags every conflict and null-only field in the merged schema, in field order
 */
public record MergeResult(Schema schema, List<SchemaFlag> flags) {
  public MergeResult {
    flags = List.copyOf(flags);
  }

  /** True when some field had to become a string because its values disagreed. */
  public boolean hasConflicts() {
    return flags.stream().anyMatch(f -> f.kind() == SchemaFlag.Kind.TYPE_CONFLICT);
  }
}
