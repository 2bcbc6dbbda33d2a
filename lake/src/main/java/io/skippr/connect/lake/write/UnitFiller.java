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
  private final UnitCutter units;
  private final MemoryGovernor memory;
  private final WallClock clock;
  private final SchemaMerge schemaMerge;

  UnitFiller(
      RotationTriggers triggers,
      RecordRouter router,
      UnitCutter units,
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
  void accept(TpStateMachine tpState, SinkRecord record, long offset) throws IOException {
    LogEntry.Intent replay = tpState.replay();
    if (replay != null && offset > replay.end()) {
      units.finishReplay(tpState);
    }
    if (tpState.replay() == null) {
      String trigger = triggers.beforeRecord(tpState.unit(), record.timestamp());
      if (trigger != null) {
        units.cut(tpState, trigger);
      }
    }
    tpState.accepted(offset);
    beginUnit(tpState);
    RecordRouter.Routed routed = router.route(record, tpState.unit().wallclockMs());
    if (routed != null) {
      buffer(tpState, record, routed);
    }
    tpState.unit().noteRecord(offset, record.timestamp());
    if (tpState.replay() != null) {
      if (offset >= tpState.replay().end()) {
        units.finishReplay(tpState);
      }
    } else {
      String trigger = triggers.afterRecord(tpState.unit());
      if (trigger != null) {
        units.cut(tpState, trigger);
      }
    }
  }

  private void beginUnit(TpStateMachine tpState) {
    LogEntry.Intent replay = tpState.replay();
    tpState.unit().begin(replay != null ? replay.wallclockMs() : clock.millis());
  }

  private void buffer(TpStateMachine tpState, SinkRecord record, RecordRouter.Routed routed)
      throws IOException {
    LogEntry.Intent replay = tpState.replay();
    if (replay != null
        && !replay
            .files()
            .contains(units.fileKey(routed.row().table(), routed.path(), replay.id()))) {
      tpState.abandonReplay(
          "offset " + record.originalKafkaOffset() + " maps to an unplanned file");
    }
    long bytes = routed.row().estimatedBytes();
    if (!add(tpState, routed)) {
      if (tpState.replay() != null) {
        tpState.abandonReplay("incompatible schema inside the unit");
      }
      units.cut(tpState, "schema change");
      beginUnit(tpState);
      // The new unit has its own wall clock, so the path is computed again.
      routed = router.partition(record, routed.row(), tpState.unit().wallclockMs());
      if (routed == null) {
        return;
      }
      add(tpState, routed);
    }
    memory.hold(bytes);
  }

  private boolean add(TpStateMachine tpState, RecordRouter.Routed routed) {
    return tpState
        .unit()
        .add(
            routed.row().table(),
            routed.path(),
            routed.row().row(),
            routed.row().estimatedBytes(),
            schemaMerge);
  }
}
