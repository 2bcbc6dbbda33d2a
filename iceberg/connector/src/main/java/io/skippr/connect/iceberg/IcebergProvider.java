package io.skippr.connect.iceberg;

import io.skippr.connect.iceberg.io.LocalFileIO;
import io.skippr.connect.lake.publish.CommitListener;
import io.skippr.connect.lake.publish.CommitListenerProvider;
import io.skippr.connect.lake.publish.ListenerContext;
import io.skippr.connect.lake.publish.LogOwnership;
import io.skippr.connect.lake.publish.PublishConfig;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.storage.LocalLakeStorage;
import io.skippr.connect.lake.write.LakeSinkConfig;
import java.util.Map;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.io.FileIO;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Registration of the lake's files in Iceberg tables, switched on by {@code iceberg.enabled}. */
public final class IcebergProvider implements CommitListenerProvider {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergProvider.class);

  @Override
  public String name() {
    return PublishConfig.ICEBERG;
  }

  @Override
  public ConfigDef configDef() {
    return IcebergConfig.configDef();
  }

  @Override
  public Map<String, String> problems(Map<String, String> props) {
    return IcebergConfig.problems(props);
  }

  /**
   * Builds the catalog (a failure fails the task's start, naming the catalog) and starts the
   * registrar.
   */
  @Override
  public CommitListener open(ListenerContext context) {
    IcebergConfig config = IcebergConfig.from(context.props());
    LakeSinkConfig lake = new LakeSinkConfig(context.props());
    Catalog catalog;
    try {
      catalog =
          CatalogUtil.buildIcebergCatalog(config.catalogName(), config.catalogProperties(), null);
    } catch (RuntimeException e) {
      throw new ConnectException(
          "Cannot open the Iceberg catalog '" + config.catalogName() + "': " + e.getMessage(), e);
    }
    LakeStorage logStorage = lake.storage().open();
    FileIO io =
        CatalogUtil.loadFileIO(
            config.catalogProperties().get(org.apache.iceberg.CatalogProperties.FILE_IO_IMPL),
            config.catalogProperties(),
            null);
    LakeDataFiles files = new LakeDataFiles(root(context.storage(), lake), io);
    RegistrationRecords records =
        RegistrationRecords.open(context.props(), config.catalogName(), context.lake().id());
    LakeTables tables = new LakeTables(catalog, config.namespace(), lake.partitioning(), files);
    TableRegistrar registrar =
        new TableRegistrar(tables, files, records, context.lake().id(), context.owner());
    LOG.info(
        "Registering lake {} in Iceberg catalog {} namespace {} every {} ms",
        context.lake().id(),
        config.catalogName(),
        config.namespace(),
        config.commitIntervalMs());
    AutoCloseable resources =
        () -> {
          try (records;
              logStorage;
              io) {
            if (catalog instanceof AutoCloseable closeable) {
              closeable.close();
            }
          }
        };
    ChangeQueue queue = new ChangeQueue();
    PendingChanges pending =
        new PendingChanges(
            new WriterFence(new LogOwnership(logStorage)), new TableCommits(registrar, files));
    RegistrationThread thread =
        new RegistrationThread(
            queue,
            pending,
            config.commitIntervalMs(),
            context.owner().replaceAll("[^A-Za-z0-9._-]", "_"));
    return new IcebergRegistrar(queue, thread, resources).start();
  }

  /** The location of the lake's root as Iceberg records it, ending in '/'. */
  static String root(LakeStorage storage, LakeSinkConfig lake) {
    if (lake.storage().s3Location().isPresent()) {
      return lake.storage().s3Location().get().toString();
    }
    return LocalFileIO.location(((LocalLakeStorage) storage).root()) + "/";
  }
}
