package io.skippr.connect.source.http.catalog;

import io.skippr.connect.source.http.config.CatalogConfig;
import io.skippr.connect.source.lineprotocol.records.ColumnStore;
import io.skippr.connect.state.api.PipelineScopeConfig;
import io.skippr.connect.state.api.StateStore;
import io.skippr.connect.state.api.StateStores;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the connector has accepted so far and keeps accepting the same way: which name owns which
 * topic ({@link TopicClaims}), the columns of each measurement ({@link ColumnStore}) and the schema
 * of each JSON stream ({@link StreamSchemas}). Kept in the state store ({@code
 * catalog.store=state}) or in the task's memory.
 */
public final class IngestCatalog implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(IngestCatalog.class);

  private final CatalogRows rows;
  private final TopicClaims claims;
  private final ColumnStore columns;
  private final StreamSchemas streams;

  private IngestCatalog(CatalogRows rows, int maxTopics, Optional<Pattern> allowed) {
    this.rows = rows;
    this.claims = new TopicClaims(rows, maxTopics, allowed);
    this.columns = new StoredColumns(rows);
    this.streams = new StreamSchemas(rows);
  }

  /**
   * Opens the catalog the config asks for.
   *
   * @param props the connector's properties (state store and pipeline settings)
   */
  public static IngestCatalog open(
      CatalogConfig.Values config,
      int maxTopics,
      Optional<Pattern> allowed,
      Map<String, String> props) {
    CatalogRows rows;
    if (config.store() == CatalogConfig.Store.MEMORY) {
      rows = new MemoryRows();
    } else {
      StateStore store = StateStores.open(props);
      try {
        rows = new StoreRows(store, PipelineScopeConfig.from(props));
      } catch (RuntimeException e) {
        store.close();
        throw e;
      }
    }
    LOG.info("HTTP ingest catalog (topic names and field types) in {}", rows.describe());
    return new IngestCatalog(rows, maxTopics, allowed);
  }

  /** A catalog in memory (tests, tools). */
  public static IngestCatalog inMemory(int maxTopics, Optional<Pattern> allowed) {
    return new IngestCatalog(new MemoryRows(), maxTopics, allowed);
  }

  public TopicClaims claims() {
    return claims;
  }

  public ColumnStore columns() {
    return columns;
  }

  public StreamSchemas streams() {
    return streams;
  }

  @Override
  public void close() {
    rows.close();
  }
}
