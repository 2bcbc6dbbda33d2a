package io.skippr.connect.sink;

import io.skippr.connect.lake.log.ProgressMirror;
import io.skippr.connect.lake.maintenance.LakeMaintenance;
import io.skippr.connect.lake.state.MaintenanceLease;
import io.skippr.connect.lake.state.StoreProgressMirror;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.write.LakeSinkConfig;
import io.skippr.connect.lake.write.LakeWriter;
import io.skippr.connect.lake.write.SourcePositions;
import io.skippr.connect.lake.write.WriterParts;
import java.io.IOException;
import java.util.Collection;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Connect lifecycle around one {@link LakeWriter}. Offsets are committed only through {@link
 * #preCommit}: the end of each TP's last committed unit, never what is merely buffered. Starts no
 * threads.
 */
public class LakeSinkTask extends SinkTask {
  private static final Logger LOG = LoggerFactory.getLogger(LakeSinkTask.class);

  private LakeStorage storage;
  private LakeWriter writer;
  private LakeMaintenance maintenance;
  private BooleanSupplier maintenanceLease = () -> false;
  private ProgressMirror mirror = ProgressMirror.NONE;

  @Override
  public String version() {
    return ConnectorVersion.get();
  }

  @Override
  public void start(Map<String, String> props) {
    LakeSinkConfig config = new LakeSinkConfig(props);
    storage = config.storage().open();
    mirror = StoreProgressMirror.open(props, config.mirrorMode());
    WriterParts parts = WriterParts.of(config, storage, mirror, SourcePositions.NONE);
    String owner = config.ownerName();
    writer = new LakeWriter(config.writerSettings(owner), parts, context);
    maintenanceLease = MaintenanceLease.watch(props);
    maintenance =
        LakeMaintenance.create(
                config.maintenance(), storage, writer::openLogs, System::currentTimeMillis, owner)
            .yieldingTo(maintenanceLease)
            .telling(writer.listener())
            .reportingTo(writer.metrics())
            .start();
    LOG.info("Lake sink task {} writing to {}", owner, storage.location());
  }

  @Override
  public void open(Collection<TopicPartition> partitions) {
    writer.open(partitions);
  }

  @Override
  public void put(Collection<SinkRecord> records) {
    writer.put(records);
  }

  @Override
  public Map<TopicPartition, OffsetAndMetadata> preCommit(
      Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
    return writer.preCommit();
  }

  @Override
  public void close(Collection<TopicPartition> partitions) {
    if (writer != null) {
      writer.close(partitions);
    }
  }

  @Override
  public void stop() {
    if (maintenance != null) {
      maintenance.close();
      maintenance = null;
    }
    if (maintenanceLease instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        LOG.debug("Closing the maintenance lease's store failed: {}", e.toString());
      }
    }
    if (writer != null) {
      writer.stop();
    }
    if (mirror instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        LOG.warn("Closing the progress mirror failed: {}", e.toString());
      }
      mirror = ProgressMirror.NONE;
    }
    if (storage != null) {
      try {
        storage.close();
      } catch (IOException e) {
        LOG.warn("Closing {} failed: {}", storage.location(), e.toString());
      }
    }
  }
}
