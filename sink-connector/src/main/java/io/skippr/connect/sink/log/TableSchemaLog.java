package io.skippr.connect.sink.log;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.schema.SchemaJson;
import io.skippr.connect.sink.convert.SharedSchemas;
import io.skippr.connect.sink.storage.LakeStorage;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The inferred schema of each schemaless table, kept in the lake so every task writing the table
 * and every restart use one: {@code _skippr/schema/{table}/{version:020d}.json}, one document per
 * version under the log's format versioning. A version is created only if absent, so of two tasks
 * that evolve a table at once exactly one wins; the other reads the winner and fits its record
 * again. Schemas are read when a task first meets a table and when it evolves one, never per
 * record.
 */
public final class TableSchemaLog implements SharedSchemas {
  private static final Logger LOG = LoggerFactory.getLogger(TableSchemaLog.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String KIND = "table-schema";

  private final LakeStorage storage;
  private final LakeLayout layout;

  public TableSchemaLog(LakeStorage storage, LakeLayout layout) {
    this.storage = storage;
    this.layout = layout;
  }

  @Override
  public Optional<Versioned> current(String table) {
    try {
      List<String> versions = storage.list(layout.schemaPrefix(table));
      for (int i = versions.size() - 1; i >= 0; i--) {
        long version = LakeLayout.seqOf(versions.get(i));
        if (version > 0) {
          return Optional.of(new Versioned(version, read(versions.get(i))));
        }
      }
      return Optional.empty();
    } catch (IOException e) {
      throw failed("read the schema of table " + table, e);
    }
  }

  @Override
  public Versioned propose(String table, long after, Schema schema) {
    long version = after + 1;
    try {
      if (storage.createIfAbsent(
          layout.schemaKey(table, version), encode(table, version, schema))) {
        LOG.info("Table {} now has schema version {}", table, version);
        return new Versioned(version, schema);
      }
      Versioned newest = current(table).orElseThrow();
      LOG.info(
          "Table {} was evolved to schema version {} by another writer; fitting against it",
          table,
          newest.version());
      return newest;
    } catch (IOException e) {
      throw failed("store version " + version + " of the schema of table " + table, e);
    }
  }

  private Schema read(String key) throws IOException {
    String where = storage.location() + key;
    JsonNode node = JSON.readTree(storage.read(key));
    if (node == null || !node.path("version").canConvertToInt()) {
      throw new LogFormatException("table schema " + where + " has no log format version");
    }
    LogCodec.checkVersion(node.get("version").intValue(), "table schema " + where);
    if (!KIND.equals(node.path("kind").asText()) || !node.has("schema")) {
      throw new LogFormatException("table schema " + where + " holds no schema");
    }
    return SchemaJson.read(node.get("schema"));
  }

  private static byte[] encode(String table, long version, Schema schema) throws IOException {
    ObjectNode node = JSON.createObjectNode();
    node.put("version", LogCodec.BASE_VERSION);
    node.put("kind", KIND);
    node.put("table", table);
    node.put("schema_version", version);
    node.set("schema", SchemaJson.write(schema));
    return JSON.writeValueAsBytes(node);
  }

  private ConnectException failed(String what, IOException e) {
    return new ConnectException(
        "Lake storage failed: cannot " + what + " in " + storage.location(), e);
  }
}
