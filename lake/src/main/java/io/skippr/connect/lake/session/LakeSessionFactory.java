package io.skippr.connect.lake.session;

import io.skippr.connect.lake.log.ProgressMirror;
import io.skippr.connect.lake.maintenance.LakeMaintenance;
import io.skippr.connect.lake.state.MaintenanceLease;
import io.skippr.connect.lake.state.StoreProgressMirror;
import io.skippr.connect.lake.storage.LakeStorage;
import io.skippr.connect.lake.write.LakeSinkConfig;
import io.skippr.connect.lake.write.LakeWriter;
import io.skippr.connect.lake.write.SourcePositions;
import io.skippr.connect.lake.write.WriterParts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * Builds a {@link LakeSession} from a lake sink's configuration: opens the storage (unless the
 * caller lends its own), the progress mirror and the maintenance lease, wires the writer and its
 * maintenance, and hands the session all it opened, to close when it stops. The one place a writer
 * of the lake is put together, for Connect's task and for {@code skippr sync} alike.
 */
public final class LakeSessionFactory {
  private final LakeSinkConfig config;
  private final Map<String, String> props;
  private LakeStorage lent;
  private UnaryOperator<ProgressMirror> mirrorThrough = UnaryOperator.identity();
  private SourcePositions sourcePositions = SourcePositions.NONE;
  private String maintenanceName;
  private boolean watchLease = true;

  private LakeSessionFactory(LakeSinkConfig config, Map<String, String> props) {
    this.config = config;
    this.props = Map.copyOf(props);
  }

  /** A session of the lake these connector properties configure. */
  public static LakeSessionFactory of(Map<String, String> props) {
    return new LakeSessionFactory(new LakeSinkConfig(props), props);
  }

  /** As {@link #of(Map)}, with the configuration already parsed from {@code props}. */
  public static LakeSessionFactory of(LakeSinkConfig config, Map<String, String> props) {
    return new LakeSessionFactory(config, props);
  }

  /** Writes to a lake the caller opened and closes itself, instead of opening one. */
  public LakeSessionFactory onStorage(LakeStorage storage) {
    this.lent = storage;
    return this;
  }

  /** Passes each progress the writer mirrors through {@code wrap} (a run that stores more). */
  public LakeSessionFactory mirroringThrough(UnaryOperator<ProgressMirror> wrap) {
    this.mirrorThrough = wrap;
    return this;
  }

  /** Where records of a source run without Kafka came from, recorded in each unit's commit. */
  public LakeSessionFactory withSourcePositions(SourcePositions positions) {
    this.sourcePositions = positions;
    return this;
  }

  /** Names the maintenance thread; the writer's owner name when not set. */
  public LakeSessionFactory maintenanceNamed(String name) {
    this.maintenanceName = name;
    return this;
  }

  /**
   * The maintenance never yields to {@code skippr compact}'s lease: for a run that holds a lease of
   * its own over the whole lake of its pipeline.
   */
  public LakeSessionFactory withoutMaintenanceLease() {
    this.watchLease = false;
    return this;
  }

  /**
   * Opens what the session needs and starts its maintenance; on failure closes what it opened.
   *
   * @param context what the writer asks of its host: seeks, pauses, rejected records, metrics
   */
  public LakeSession start(SinkTaskContext context) {
    List<LakeSession.Owned> owned = new ArrayList<>();
    LakeWriter writer = null;
    try {
      LakeStorage storage = lent;
      if (storage == null) {
        storage = config.storage().open();
        owned.add(new LakeSession.Owned(storage.location(), storage));
      }
      ProgressMirror mirror = StoreProgressMirror.open(props, config.mirrorMode());
      if (mirror instanceof AutoCloseable closeable) {
        owned.add(new LakeSession.Owned("the progress mirror", closeable));
      }
      String owner = config.ownerName();
      WriterParts parts =
          WriterParts.of(config, storage, mirrorThrough.apply(mirror), sourcePositions);
      writer = new LakeWriter(config.writerSettings(owner), parts, context);
      BooleanSupplier lease = watchLease ? MaintenanceLease.watch(props) : () -> false;
      if (lease instanceof AutoCloseable closeable) {
        owned.add(new LakeSession.Owned("the maintenance lease's store", closeable));
      }
      LakeMaintenance maintenance =
          LakeMaintenance.create(
                  config.maintenance(),
                  storage,
                  writer::openLogs,
                  System::currentTimeMillis,
                  maintenanceName != null ? maintenanceName : owner)
              .yieldingTo(lease)
              .telling(writer.listener())
              .reportingTo(writer.metrics())
              .start();
      return new LakeSession(writer, maintenance, owned, owner, storage.location());
    } catch (RuntimeException | Error e) {
      if (writer != null) {
        try {
          writer.stop();
        } catch (RuntimeException stopping) {
          e.addSuppressed(stopping);
        }
      }
      LakeSession.closeAll(owned);
      throw e;
    }
  }
}
