package io.skippr.connect.lake.log;

import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;

/**
 * The files a TP's log accounts for: the live ones, the pending unit's, the retired ones waiting
 * out their grace, and the outputs of the merge under way. A stored file named for the TP outside
 * this set is an orphan: the sink deletes it when it opens the TP, {@code skippr audit} reports it.
 * The one definition, for every reader of a log ({@link LogState#accountedFiles}, and views of a
 * log built from it).
 */
public final class AccountedFiles {
  private AccountedFiles() {}

  /**
   * @param live the files the log lists as live
   * @param pendingUnit the files of the unit planned but neither committed nor aborted
   * @param retired the files no longer live that the log has not recorded as deleted
   * @param mergeOutputs the outputs of the merge planned but neither committed nor aborted
   */
  public static Set<String> of(
      Collection<String> live,
      Collection<String> pendingUnit,
      Collection<String> retired,
      Collection<String> mergeOutputs) {
    Set<String> keys = new HashSet<>(live);
    keys.addAll(pendingUnit);
    keys.addAll(retired);
    keys.addAll(mergeOutputs);
    return Collections.unmodifiableSet(keys);
  }
}
