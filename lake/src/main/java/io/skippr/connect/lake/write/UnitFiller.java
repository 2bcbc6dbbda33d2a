package io.skippr.connect.lake.write;

import io.skippr.connect.lake.buffer.RotationTriggers;
import io.skippr.connect.lake.buffer.SchemaMerge;
import io.skippr.connect.lake.buffer.WallClock;
import io.skippr.connect.lake.log.LogEntry;
import java.io.IOException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Fills a TP's open unit with the records that continue it: replay bounds first (a replay re-cuts
 * exactly the unit its intent planned), then the rotation triggers, routing to a table and path,
 * and a cut when a row's schema cannot join the unit's. Called by the task's thread only.
 */
final class UnitFiller {
  private final RotationTriggers triggers;
  private final RecordRouter router;
  private final UnitFlow units;
  private final MemoryGovernor memory;
  private final WallClock clock;
  private final SchemaMerge schemaMerge;

  UnitFiller(
      RotationTriggers triggers,
      RecordRouter router,
      UnitFlow units,
      MemoryGovernor memory,
      WriterParts parts) {
    this.triggers = triggers;
    this.router = router;
    this.units = units;
    this.memory = memory;
    this.clock = parts.clock();
    this.schemaMerge = parts.schemaMerge();
  }

  /**
   * Adds one record that continues its TP: finishes a replay it passes, cuts the unit when a
   * trigger fires before or after it, and buffers its row (an unroutable record went to the DLQ).
   */
  void accept(TpSession session, SinkRecord record, long offset) throws IOException {
    LogEntry.Intent replay = session.replay();
    if (replay != null && offset > replay.end()) {
      units.finishReplay(session);
    }
    if (session.replay() == null) {
      String trigger = triggers.beforeRecord(session.unit(), record.timestamp());
      if (trigger != null) {
        units.cut(session, trigger);
      }
    }
    session.accepted(offset);
    beginUnit(session);
    RecordRouter.Routed routed = router.route(record, session.unit().wallclockMs());
    if (routed != null) {
      buffer(session, record, routed);
    }
    session.unit().noteRecord(offset, record.timestamp());
    if (session.replay() != null) {
      if (offset >= session.replay().end()) {
        units.finishReplay(session);
      }
    } else {
      String trigger = triggers.afterRecord(session.unit());
      if (trigger != null) {
        units.cut(session, trigger);
      }
    }
  }

  private void beginUnit(TpSession session) {
    LogEntry.Intent replay = session.replay();
    session.unit().begin(replay != null ? replay.wallclockMs() : clock.millis());
  }

  private void buffer(TpSession session, SinkRecord record, RecordRouter.Routed routed)
      throws IOException {
    LogEntry.Intent replay = session.replay();
    if (replay != null
        && !replay
            .files()
            .contains(units.fileKey(routed.row().table(), routed.path(), replay.id()))) {
      units.abandonReplay(
          session, "offset " + record.originalKafkaOffset() + " maps to an unplanned file");
    }
    long bytes = routed.row().estimatedBytes();
    if (!add(session, routed)) {
      if (session.replay() != null) {
        units.abandonReplay(session, "incompatible schema inside the unit");
      }
      units.cut(session, "schema change");
      beginUnit(session);
      // The new unit has its own wall clock, so the path is computed again.
      routed = router.partition(record, routed.row(), session.unit().wallclockMs());
      if (routed == null) {
        return;
      }
      add(session, routed);
    }
    memory.hold(bytes);
  }

  private boolean add(TpSession session, RecordRouter.Routed routed) {
    return session
        .unit()
        .add(
            routed.row().table(),
            routed.path(),
            routed.row().row(),
            routed.row().estimatedBytes(),
            schemaMerge);
  }
}
