package io.skippr.connect.source.poll.cursor;

import io.skippr.connect.source.poll.config.CursorConfig;

/**
 * Decides whether a listed record comes after what was already delivered, so a page read twice
 * (after a restart, or at the start of the next pass) delivers only what is new.
 *
 * <ul>
 *   <li>With a tie-breaker: the record is new when its (cursor, tie-breaker) is after the delivered
 *       one. Equal cursors across page borders and passes are told apart by the tie-breaker.
 *   <li>Without one: a greater cursor is new and a smaller one is not. An equal cursor is new only
 *       within the pass that delivered it (listings of one pass are taken to have no duplicates),
 *       except the first {@code skip} records of a page re-read after a restart. In a later pass,
 *       records equal to the delivered cursor are taken as delivered.
 *   <li>Without a cursor: only the first {@code skip} records of a re-read page are skipped.
 * </ul>
 */
public final class Dedup {

  private final CursorConfig.Values config;
  private final CursorOrder order;

  public Dedup(CursorConfig.Values config) {
    this.config = config;
    this.order = new CursorOrder(config.type());
  }

  public CursorOrder order() {
    return order;
  }

  /**
   * @param delivered the high-water mark (cursor null: nothing delivered yet) and its pass
   * @param pass the pass the record is listed in
   * @param skip records at the start of this page already handled before a restart (0 otherwise)
   * @param cursor the record's cursor, null without {@code cursor.pointer}
   * @param tiebreak the record's tie-breaker, null without {@code cursor.tiebreak.pointer}
   * @param index the record's index on its page
   */
  public boolean isNew(
      Position delivered, long pass, long skip, String cursor, String tiebreak, int index) {
    boolean handledBeforeRestart = index < skip;
    if (!config.hasCursor() || delivered.cursor() == null) {
      return !handledBeforeRestart;
    }
    int cmp = order.compare(cursor, delivered.cursor());
    if (cmp != 0) {
      return cmp > 0;
    }
    if (config.hasTiebreak()) {
      // A position set without a tie-breaker means every record of that cursor was delivered.
      return delivered.tiebreak() != null && order.compare(tiebreak, delivered.tiebreak()) > 0;
    }
    return delivered.pass() == pass && !handledBeforeRestart;
  }
}
