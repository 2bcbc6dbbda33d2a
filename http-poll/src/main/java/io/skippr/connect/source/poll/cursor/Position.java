package io.skippr.connect.source.poll.cursor;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where an endpoint stands; the source offset of its records. Two parts: the high-water mark of
 * what was delivered ({@code cursor}, {@code tiebreak}, and the {@code pass} it was delivered in),
 * and the page state of the open pass ({@code passCursor} sent in its requests, page number {@code
 * page} within the pass and its reference {@code next}: a URL, token, page number or offset, null
 * for the pass's first page; {@code skip} records of that page already handled), or {@code
 * passDone} when the pass ended. {@code rejects} counts the records sent to the rejection topic
 * since the last delivered one: the next pass lists them again right after it and skips them.
 */
public record Position(
    String cursor,
    String tiebreak,
    long pass,
    String passCursor,
    long page,
    String next,
    long skip,
    long rejects,
    boolean passDone) {

  public static final String CURSOR = "cursor";
  public static final String TIEBREAK = "tiebreak";
  public static final String PASS = "pass";
  public static final String PASS_CURSOR = "pass_cursor";
  public static final String PAGE = "page";
  public static final String NEXT = "next";
  public static final String SKIP = "skip";
  public static final String REJECTS = "rejects";
  public static final String PASS_DONE = "pass_done";

  /** The position before anything was delivered: the first pass, from {@code initialCursor}. */
  public static Position initial(String initialCursor) {
    return new Position(null, null, 0, initialCursor, 0, null, 0, 0, false);
  }

  /** The first page of the pass after this one, from the delivered cursor (or the initial one). */
  public Position nextPass(String initialCursor) {
    return new Position(
        cursor,
        tiebreak,
        pass + 1,
        cursor != null ? cursor : initialCursor,
        0,
        null,
        0,
        rejects,
        false);
  }

  /** After delivering a record with this cursor and tie-breaker, in this pass. */
  public Position delivered(String newCursor, String newTiebreak) {
    return new Position(newCursor, newTiebreak, pass, passCursor, page, next, skip, 0, passDone);
  }

  /** After one more record went to the rejection topic. */
  public Position rejected() {
    return new Position(
        cursor, tiebreak, pass, passCursor, page, next, skip, rejects + 1, passDone);
  }

  /** Within the current page, {@code handled} records of it handled. */
  public Position within(long handled) {
    return new Position(cursor, tiebreak, pass, passCursor, page, next, handled, rejects, false);
  }

  /** At the start of the next page of this pass, whose reference is {@code ref}. */
  public Position nextPage(String ref) {
    return new Position(cursor, tiebreak, pass, passCursor, page + 1, ref, 0, rejects, false);
  }

  /** The pass ended after the current page. */
  public Position done() {
    return new Position(cursor, tiebreak, pass, passCursor, page, next, skip, rejects, true);
  }

  /** The offset map Connect stores (only primitive values; absent values are left out). */
  public Map<String, Object> toOffset() {
    Map<String, Object> offset = new LinkedHashMap<>();
    putIfSet(offset, CURSOR, cursor);
    putIfSet(offset, TIEBREAK, tiebreak);
    offset.put(PASS, pass);
    putIfSet(offset, PASS_CURSOR, passCursor);
    offset.put(PAGE, page);
    putIfSet(offset, NEXT, next);
    offset.put(SKIP, skip);
    if (rejects > 0) {
      offset.put(REJECTS, rejects);
    }
    offset.put(PASS_DONE, passDone);
    return offset;
  }

  private static void putIfSet(Map<String, Object> map, String key, String value) {
    if (value != null) {
      map.put(key, value);
    }
  }

  @Override
  public String toString() {
    return passDone
        ? "cursor " + cursor + (tiebreak == null ? "" : "/" + tiebreak) + ", pass " + pass + " done"
        : "cursor "
            + cursor
            + (tiebreak == null ? "" : "/" + tiebreak)
            + ", pass "
            + pass
            + " from "
            + passCursor
            + ", page "
            + page
            + (skip > 0 ? " after record " + skip : "");
  }
}
