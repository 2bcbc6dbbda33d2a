package io.skippr.connect.lake.log;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.lake.convert.SharedSchemas;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.schema.SchemaJson;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.connect.data.Schema;
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
  private static final String KIND = "table-schema";

  /** The fields of a stored schema. */
  private static final Set<String> FIELDS =
      Set.of("version", "kind", "table", "schema_version", "schema");

  private final LakeStorage storage;
  private final LakeLayout layout;

  public TableSchemaLog(LakeStorage storage, LakeLayout layout) {
    this.storage = storage;
    this.layout = layout;
  }

  @Override
  public Optional<Versioned> current(String table) {
    try {
      Optional<String> newest = LakeLayout.newestVersion(storage.list(layout.schemaPrefix(table)));
      if (newest.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(new Versioned(LakeLayout.seqOf(newest.get()), read(newest.get())));
    } catch (IOException e) {
      throw TableVersionFiles.failed(storage, "read the schema of table " + table, e);
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
      throw TableVersionFiles.failed(
          storage, "store version " + version + " of the schema of table " + table, e);
    }
  }

  /**
   * Reads one stored version of a table's schema.
   *
   * @param key the version's key ({@code _skippr/schema/{table}/{version:020d}.json})
   * @throws LogFormatException when the document is of a newer format, damaged (not valid JSON,
   *     fails its checksum, holds no schema), or belongs to another table or version
   */
  public Schema read(String key) throws IOException {
    String what = "table schema " + storage.location() + key;
    try {
      SealedJson.Opened opened = SealedJson.open(storage.read(key), what);
      opened.onlyFields(FIELDS, what);
      ObjectNode node = opened.node();
      JsonNode version = node.get("version");
      if (version == null || !version.isIntegralNumber() || !version.canConvertToInt()) {
        throw new LogFormatException(what + " has no log format version");
      }
      LogCodec.checkVersion(version.intValue(), what);
      if (!KIND.equals(node.path("kind").asText()) || !node.path("schema").isObject()) {
        throw new LogFormatException(what + " holds no schema");
      }
      TableVersionFiles.belongsHere(node, key, what, "schema_version", false);
      return SchemaJson.read(node.get("schema"));
    } catch (LogFormatException e) {
      throw e.isNewerFormat() ? e : new LogFormatException(e.getMessage() + WAY_OUT, e);
    } catch (RuntimeException | StackOverflowError e) {
      throw new LogFormatException(
          what + " holds a schema that cannot be read: " + e.getMessage() + WAY_OUT, e);
    }
  }

  private static final String WAY_OUT =
      ". The table's records are not written until it is restored from a backup or an earlier"
          + " version of the object (see \"A damaged lake\" in docs/lake-format.md)";

  /** A schema names its table and version; one copied to another place is refused. */
  private static byte[] encode(String table, long version, Schema schema) {
    ObjectNode node = SealedJson.MAPPER.createObjectNode();
    node.put("version", LogCodec.BASE_VERSION);
    node.put("kind", KIND);
    node.put("table", table);
    node.put("schema_version", version);
    node.set("schema", SchemaJson.write(schema));
    return SealedJson.seal(node);
  }
}
