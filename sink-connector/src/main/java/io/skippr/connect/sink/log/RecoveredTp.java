package io.skippr.connect.sink.log;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A TP after {@link TpRecovery#recover}: its log with this writer's new epoch, and where to resume.
 *
 * @param log the log, claimed by this writer
 * @param replay the pending intent to replay exactly, if any
 * @param seekOffset the offset to resume consuming at; empty to keep the consumer's position
 * @param deletedOrphans the orphan files deleted
 */
public record RecoveredTp(
    TpLog log,
    Optional<LogEntry.Intent> replay,
    OptionalLong seekOffset,
    List<String> deletedOrphans) {
  public RecoveredTp {
    deletedOrphans = List.copyOf(deletedOrphans);
  }
}
