package io.skippr.connect.iceberg;

import io.skippr.connect.lake.log.LiveFile;
import io.skippr.connect.lake.partition.PartitioningConfig;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.mapping.NameMappingParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Iceberg table of each lake table: {@code namespace.T}, created from the lake's schema (the
 * first file's footer) with the partition spec that follows the partitioner and a name mapping,
 * since the lake's files carry no field ids; its schema evolves (new optional columns, widened
 * types) before files of a newer schema are registered.
 */
final class LakeTables {
  private static final Logger LOG = LoggerFactory.getLogger(LakeTables.class);

  private final Catalog catalog;
  private final Namespace namespace;
  private final PartitioningConfig partitioning;
  private final LakeDataFiles files;

  LakeTables(
      Catalog catalog, Namespace namespace, PartitioningConfig partitioning, LakeDataFiles files) {
    this.catalog = catalog;
    this.namespace = namespace;
    this.partitioning = partitioning;
    this.files = files;
  }

  TableIdentifier identifier(String lakeTable) {
    return TableIdentifier.of(namespace, lakeTable);
  }

  /** The table, created for {@code first} (a file of it) when missing. */
  Table load(String lakeTable, LiveFile first) {
    TableIdentifier id = identifier(lakeTable);
    try {
      return catalog.loadTable(id);
    } catch (NoSuchTableException e) {
      return create(id, first);
    }
  }

  /** The table, or null when it does not exist. */
  Table loadIfExists(String lakeTable) {
    try {
      return catalog.loadTable(identifier(lakeTable));
    } catch (NoSuchTableException e) {
      return null;
    }
  }

  /**
   * Brings the table's schema up to the files' schemas (new optional columns, promoted types) and
   * makes sure it has a name mapping, before any of the files is registered.
   *
   * @return the table, refreshed when it changed
   */
  Table evolve(Table table, Collection<LiveFile> newFiles) {
    Map<String, Schema> schemas = new HashMap<>();
    for (LiveFile file : newFiles) {
      schemas.computeIfAbsent(file.schemaFingerprint(), f -> files.schema(file));
    }
    boolean evolved = false;
    for (Schema schema : schemas.values()) {
      UpdateSchema update = table.updateSchema().unionByNameWith(schema);
      if (!update.apply().sameSchema(table.schema())) {
        update.commit();
        table.refresh();
        evolved = true;
        LOG.info("Evolved the schema of {} to {}", table.name(), table.schema());
      }
    }
    String mapping = NameMappingParser.toJson(MappingUtil.create(table.schema()));
    if (evolved || !table.properties().containsKey(TableProperties.DEFAULT_NAME_MAPPING)) {
      // Every column by its name, the new ones too: the files name their columns, not ids.
      table.updateProperties().set(TableProperties.DEFAULT_NAME_MAPPING, mapping).commit();
      table.refresh();
    }
    return table;
  }

  private Table create(TableIdentifier id, LiveFile first) {
    createNamespace();
    PartitionMapping.Plan plan =
        PartitionMapping.plan(partitioning, files.schema(first), files.partitionPath(first.key()));
    Map<String, String> properties = new HashMap<>();
    properties.put(TableProperties.FORMAT_VERSION, "2");
    properties.put(PartitionMapping.PATH_COLUMNS, String.join(",", plan.pathColumns()));
    for (PartitionField field : plan.spec().fields()) {
      // Partition values of data columns come from their bounds: keep them whole.
      String column = plan.schema().findColumnName(field.sourceId());
      properties.put(TableProperties.METRICS_MODE_COLUMN_CONF_PREFIX + column, "full");
    }
    try {
      Table table = catalog.createTable(id, plan.schema(), plan.spec(), properties);
      LOG.info("Created Iceberg table {} partitioned by {}", id, table.spec());
      return table;
    } catch (AlreadyExistsException e) {
      return catalog.loadTable(id); // another task created it first
    }
  }

  private void createNamespace() {
    if (catalog instanceof SupportsNamespaces namespaces
        && !namespace.isEmpty()
        && !namespaces.namespaceExists(namespace)) {
      try {
        namespaces.createNamespace(namespace);
      } catch (AlreadyExistsException ignored) {
        // created by another task meanwhile
      }
    }
  }
}
