package io.skippr.connect.lake.convert;

import io.skippr.connect.schema.SchemaEvolution;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/** The schema of a file from the rows going into it, folded as the sink's path buffers do. */
final class FileSchemas {
  private FileSchemas() {}

  /**
   * The rows' schemas evolved into one, in row order: what {@code LakeFileWriter.write} needs as
   * its file schema. It depends only on the rows, so a replay of the same rows gets the same
   * schema. Consecutive rows sharing a schema instance cost one comparison.
   *
   * @throws DataException when the rows are empty or two row schemas cannot be reconciled (rows of
   *     one {@link LakeRowConverter} table always can)
   */
  static Schema widest(List<Struct> rows) {
    if (rows.isEmpty()) {
      throw new DataException("a file needs at least one row");
    }
    Schema result = rows.get(0).schema();
    Schema last = result;
    for (int i = 1, n = rows.size(); i < n; i++) {
      Schema next = rows.get(i).schema();
      if (next == last || next == result) {
        continue;
      }
      last = next;
      Schema current = result;
      result =
          SchemaEvolution.evolve(current, next)
              .orElseThrow(
                  () ->
                      new DataException(
                          "rows of one file have irreconcilable schemas: "
                              + SchemaMismatch.explain(current, next)));
    }
    return result;
  }
}
