package io.skippr.connect.lake.log;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A TP after {@link TpRecovery#recover}: its log with this writer's new epoch, and where to resume.
 *
 * @param log the log, claimed by this writer
 * @param replay the pending intent to replay exactly, if any
 * @param seekOffset the offset the lake expects next; empty when the lake has no record of the TP
 *     and the consumer's position decides
 * @param seekReason where {@code seekOffset} comes from, for messages
 * @param deletedOrphans the orphan files deleted
 */
public record RecoveredTp(
    TpLog log,
    Optional<LogEntry.Intent> replay,
    OptionalLong seekOffset,
    String seekReason,
    List<String> deletedOrphans) {
  public RecoveredTp {
    deletedOrphans = List.copyOf(deletedOrphans);
  }
}
