package io.skippr.connect.source.http.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.connect.source.lineprotocol.records.ColumnKind;
import io.skippr.connect.source.lineprotocol.records.ColumnStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Measurement columns as catalog rows {@code measurement/{name}}: {@code
 * {"columns":[["host","TAG"], ["usage","DOUBLE"]]}}, in the order they were added.
 */
final class StoredColumns implements ColumnStore {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final CatalogRows rows;

  StoredColumns(CatalogRows rows) {
    this.rows = rows;
  }

  @Override
  public Stored load(String measurement) {
    CatalogRows.Row row = rows.get(RowIds.of("measurement", measurement));
    if (!row.exists()) {
      return Stored.NONE;
    }
    Map<String, ColumnKind> columns = new LinkedHashMap<>();
    try {
      for (JsonNode column : JSON.readTree(row.value()).path("columns")) {
        columns.put(column.get(0).asText(), ColumnKind.valueOf(column.get(1).asText()));
      }
    } catch (IOException | RuntimeException e) {
      throw new CatalogException(
          "the catalog row of measurement '" + measurement + "' cannot be read: " + e, e);
    }
    return new Stored(row.version(), columns);
  }

  @Override
  public boolean save(String measurement, long expectedVersion, Map<String, ColumnKind> columns) {
    ObjectNode node = JSON.createObjectNode();
    ArrayNode list = node.putArray("columns");
    columns.forEach((name, kind) -> list.addArray().add(name).add(kind.name()));
    return rows.compareAndSet(
        RowIds.of("measurement", measurement),
        expectedVersion,
        node.toString().getBytes(StandardCharsets.UTF_8));
  }
}
