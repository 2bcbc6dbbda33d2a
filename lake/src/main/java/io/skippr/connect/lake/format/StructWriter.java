package io.skippr.connect.lake.format;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * Writes structs of any row schema that widens to one file schema. For each distinct row schema it
 * computes once which row field feeds each file column; the last one is checked by identity, so a
 * run of rows sharing a schema costs one pointer compare per struct.
 */
final class StructWriter implements ValueWriter {
  private static final int MAX_ALIGNMENTS = 1024;

  private final Schema fileSchema;
  private final String path;
  private final String[] names;
  private final ValueWriter[] writers;
  private final boolean[] required;
  private final Map<Schema, Field[]> alignments = new HashMap<>();
  private Schema lastSchema;
  private Field[] lastAlignment;

  StructWriter(Schema fileSchema, String path) {
    this.fileSchema = fileSchema;
    this.path = path;
    List<Field> fields = fileSchema.fields();
    this.names = new String[fields.size()];
    this.writers = new ValueWriter[fields.size()];
    this.required = new boolean[fields.size()];
    for (int i = 0; i < names.length; i++) {
      Field field = fields.get(i);
      String fieldPath = path.isEmpty() ? field.name() : path + "." + field.name();
      names[i] = field.name();
      writers[i] = ValueWriters.forSchema(field.schema(), fieldPath);
      required[i] = !field.schema().isOptional();
    }
  }

  @Override
  public void write(RecordConsumer consumer, Object value) {
    consumer.startGroup();
    writeFields(consumer, (Struct) value);
    consumer.endGroup();
  }

  /** Writes the fields of a row or nested struct between the caller's start and end markers. */
  void writeFields(RecordConsumer consumer, Struct struct) {
    Field[] alignment = align(struct.schema());
    for (int i = 0; i < alignment.length; i++) {
      Field source = alignment[i];
      Object value = source == null ? null : struct.get(source);
      if (value == null) {
        if (required[i]) {
          throw new DataException("field " + fieldPath(i) + " is required but the row holds null");
        }
        continue;
      }
      consumer.startField(names[i], i);
      writers[i].write(consumer, value);
      consumer.endField(names[i], i);
    }
  }

  private Field[] align(Schema rowSchema) {
    if (rowSchema == lastSchema) {
      return lastAlignment;
    }
    Field[] alignment = alignments.get(rowSchema);
    if (alignment == null) {
      alignment = computeAlignment(rowSchema);
      if (alignments.size() >= MAX_ALIGNMENTS) {
        alignments.clear();
      }
      alignments.put(rowSchema, alignment);
    }
    lastSchema = rowSchema;
    lastAlignment = alignment;
    return alignment;
  }

  private Field[] computeAlignment(Schema rowSchema) {
    if (rowSchema == fileSchema) {
      return fileSchema.fields().toArray(new Field[0]);
    }
    String mismatch = SchemaWidening.mismatch(rowSchema, fileSchema, path);
    if (mismatch != null) {
      throw new DataException("row does not fit the file schema: " + mismatch);
    }
    Field[] alignment = new Field[names.length];
    for (int i = 0; i < names.length; i++) {
      alignment[i] = rowSchema.field(names[i]);
    }
    return alignment;
  }

  private String fieldPath(int i) {
    return path.isEmpty() ? names[i] : path + "." + names[i];
  }
}
