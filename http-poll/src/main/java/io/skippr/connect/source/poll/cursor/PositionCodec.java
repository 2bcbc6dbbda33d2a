package io.skippr.connect.source.poll.cursor;

import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Reads an offset map back into a {@link Position}, strictly: an offset set through Connect's REST
 * API (KIP-875) is checked before it is stored. {@code {"cursor": X}} alone (optionally with a
 * {@code tiebreak}) means "everything up to X was delivered": the next pass starts from X.
 */
public final class PositionCodec {

  private static final Set<String> KEYS =
      Set.of(
          Position.CURSOR,
          Position.TIEBREAK,
          Position.PASS,
          Position.PASS_CURSOR,
          Position.PAGE,
          Position.NEXT,
          Position.SKIP,
          Position.REJECTS,
          Position.PASS_DONE);

  private PositionCodec() {}

  /**
   * The position an offset describes.
   *
   * @throws ConnectException naming the key when the offset is not one this connector wrote
   */
  public static Position fromOffset(Map<String, ?> offset) {
    for (String key : offset.keySet()) {
      if (!KEYS.contains(key)) {
        throw new ConnectException(
            "offset key '" + key + "' is unknown; an HTTP poll offset may hold " + KEYS);
      }
    }
    String cursor = text(offset, Position.CURSOR);
    String tiebreak = text(offset, Position.TIEBREAK);
    boolean pageState = offset.containsKey(Position.PAGE) || offset.containsKey(Position.NEXT);
    Object doneValue = offset.get(Position.PASS_DONE);
    if (doneValue != null && !(doneValue instanceof Boolean)) {
      throw new ConnectException("offset key 'pass_done' must be true or false: " + doneValue);
    }
    boolean done = doneValue != null ? (Boolean) doneValue : !pageState;
    return new Position(
        cursor,
        tiebreak,
        count(offset, Position.PASS),
        text(offset, Position.PASS_CURSOR),
        count(offset, Position.PAGE),
        text(offset, Position.NEXT),
        count(offset, Position.SKIP),
        count(offset, Position.REJECTS),
        done);
  }

  private static String text(Map<String, ?> offset, String key) {
    Object value = offset.get(key);
    if (value == null) {
      return null;
    }
    if (value instanceof String || value instanceof Number) {
      return value.toString();
    }
    throw new ConnectException("offset key '" + key + "' must be a string or number: " + value);
  }

  private static long count(Map<String, ?> offset, String key) {
    Object value = offset.get(key);
    if (value == null) {
      return 0;
    }
    if (value instanceof Number n && n.doubleValue() == n.longValue() && n.longValue() >= 0) {
      return n.longValue();
    }
    throw new ConnectException("offset key '" + key + "' must be a whole number >= 0: " + value);
  }
}
