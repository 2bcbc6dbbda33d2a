package io.skippr.connect.lake.buffer;

import java.util.Optional;
import org.apache.kafka.connect.data.Schema;

/**
 * Decides whether rows of a new schema can join rows buffered under another in one file: the
 * widened file schema, or empty when the two cannot share a file.
 */
@FunctionalInterface
public interface SchemaMerge {
  Optional<Schema> merge(Schema current, Schema incoming);
}
