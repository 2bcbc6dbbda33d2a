package io.skippr.connect.source.http.catalog;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.connect.schema.InferredSchema;
import io.skippr.connect.schema.SchemaJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;

/**
 * The field types of each JSON stream, by the rules the lake sink infers schemaless rows with
 * ({@link InferredSchema}): new keys become new optional fields, a field only ever null takes the
 * first concrete type, numbers widen int → long → double, and any other change (a string after a
 * number, an object after a scalar, …) is refused with the field's path. The schema is kept as a
 * catalog row {@code stream/{name}} ({@link SchemaJson}) and saved, conditionally on the version it
 * grew from, before the item that grew it is accepted: tasks that share the catalog hold every
 * stream to one schema, across restarts too.
 */
public final class StreamSchemas {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_ATTEMPTS = 100;

  private final CatalogRows rows;
  private final Map<String, Stream> streams = new ConcurrentHashMap<>();

  /**
   * @param version the stored version
   * @param schema null before the first item
   */
  private record Snapshot(long version, Schema schema) {}

  StreamSchemas(CatalogRows rows) {
    this.rows = rows;
  }

  /**
   * Checks an item against its stream's schema, growing (and saving) the schema when the item
   * brings new fields or wider numbers.
   *
   * @return null when the item fits, else the reason it does not
   * @throws CatalogException when the catalog cannot be read or written
   */
  public String admit(String stream, Map<String, Object> item) {
    Stream state = streams.get(stream);
    if (state == null) {
      Stream loaded = new Stream(stream, load(stream));
      Stream raced = streams.putIfAbsent(stream, loaded);
      state = raced != null ? raced : loaded;
    }
    return state.admit(item);
  }

  /** One stream's schema; readers use the immutable snapshot without locking. */
  private final class Stream {
    private final String name;
    private volatile Snapshot snapshot;

    Stream(String name, Snapshot snapshot) {
      this.name = name;
      this.snapshot = snapshot;
    }

    String admit(Map<String, Object> item) {
      Snapshot current = snapshot;
      try {
        Schema fitted = new InferredSchema(current.schema(), false).fit(item);
        return fitted == current.schema() ? null : grow(item);
      } catch (DataException e) {
        return refusal(e);
      }
    }

    private synchronized String grow(Map<String, Object> item) {
      for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        Snapshot current = snapshot;
        Schema fitted;
        try {
          fitted = new InferredSchema(current.schema(), false).fit(item);
        } catch (DataException e) {
          return refusal(e);
        }
        if (fitted == current.schema()) {
          return null;
        }
        byte[] value = SchemaJson.write(fitted).toString().getBytes(StandardCharsets.UTF_8);
        if (rows.compareAndSet(RowIds.of("stream", name), current.version(), value)) {
          snapshot = new Snapshot(current.version() + 1, fitted);
          return null;
        }
        snapshot = load(name);
      }
      return "the fields of JSON stream '" + name + "' kept changing while this item was checked";
    }

    private String refusal(DataException e) {
      return "does not fit JSON stream '" + name + "': " + e.getMessage();
    }
  }

  private Snapshot load(String stream) {
    CatalogRows.Row row = rows.get(RowIds.of("stream", stream));
    if (!row.exists()) {
      return new Snapshot(0, null);
    }
    try {
      return new Snapshot(row.version(), SchemaJson.read(JSON.readTree(row.value())));
    } catch (IOException | RuntimeException e) {
      throw new CatalogException(
          "the catalog row of JSON stream '" + stream + "' cannot be read: " + e, e);
    }
  }
}
