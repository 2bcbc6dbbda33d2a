package io.skippr.connect.source.poll.cursor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.connect.source.poll.config.CursorConfig;
import io.skippr.connect.source.poll.config.CursorConfig.CursorType;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

class CursorTest {

  private static CursorConfig.Values cursor(String tiebreak, CursorType type) {
    return new CursorConfig.Values("/updated_at", "since", null, tiebreak, type);
  }

  @Test
  void autoComparesNumbersAsNumbersAndTimestampsAsInstants() {
    CursorOrder auto = new CursorOrder(CursorType.AUTO);
    assertThat(auto.compare("9", "10")).isNegative();
    assertThat(auto.compare("1.5", "1.50")).isZero();
    assertThat(auto.compare("-3", "2e1")).isNegative();
    // Lexicographically '.' sorts before 'Z', but half a second is later.
    assertThat(auto.compare("2024-05-01T00:00:00.500Z", "2024-05-01T00:00:00Z")).isPositive();
    assertThat(auto.compare("2024-05-01T02:00:00+02:00", "2024-05-01T00:00:00Z")).isZero();
    assertThat(auto.compare("2024-05-01T00:00:01", "2024-05-01T00:00:00Z")).isPositive();
    assertThat(auto.compare("2024-05-02", "2024-05-01T23:59:59Z")).isPositive();
    assertThat(auto.compare("b", "a")).isPositive();
    assertThat(new CursorOrder(CursorType.STRING).compare("9", "10")).isPositive();
  }

  @Test
  void typedCursorsNameValuesThatDoNotFit() {
    assertThat(new CursorOrder(CursorType.NUMBER).check("12a")).contains("'12a' is not a number");
    assertThat(new CursorOrder(CursorType.TIMESTAMP).check("yesterday"))
        .contains("'yesterday' is not an ISO-8601 timestamp");
    assertThat(new CursorOrder(CursorType.AUTO).check("anything")).isEmpty();
  }

  @Test
  void aNumberWhoseExponentNoBigDecimalHoldsIsText() {
    // Found by CursorOrderFuzzTest: new BigDecimal("1e99999999999") threw, and a record with that
    // cursor failed the task ("cannot read a page").
    assertThat(new CursorOrder(CursorType.AUTO).compare("0", "1e99999999999")).isNegative();
    assertThat(new CursorOrder(CursorType.NUMBER).check("1e99999999999"))
        .contains("'1e99999999999' is not a number");
  }

  @Test
  void mixedKindsOfCursorsAreOrderedTransitively() {
    // Found by CursorOrderFuzzTest: "1970-01-01T00:00:00Z" < "2" and "2" < "10.0", but
    // "1970-01-01T00:00:00Z" > "10.0": text compared by characters, numbers by value.
    CursorOrder auto = new CursorOrder(CursorType.AUTO);
    assertThat(auto.compare("2", "10.0")).isNegative();
    assertThat(auto.compare("10.0", "1970-01-01T00:00:00Z")).isNegative();
    assertThat(auto.compare("2", "1970-01-01T00:00:00Z")).isNegative();
    assertThat(auto.compare("1970-01-01T00:00:00Z", "1a")).isNegative();
    assertThat(auto.compare("10.0", "1a")).isNegative();
    CursorOrder numbers = new CursorOrder(CursorType.NUMBER);
    assertThat(numbers.compare("10", "9a")).isNegative();
    assertThat(numbers.compare("9", "10")).isNegative();
  }

  @Test
  void withATiebreakerEqualCursorsAreToldApartInAnyPass() {
    Dedup dedup = new Dedup(cursor("/id", CursorType.AUTO));
    Position delivered = Position.initial(null).delivered("2024-05-01T00:00:05Z", "17");
    assertThat(dedup.isNew(delivered, 3, 0, "2024-05-01T00:00:05Z", "17", 0)).isFalse();
    assertThat(dedup.isNew(delivered, 3, 0, "2024-05-01T00:00:05Z", "16", 0)).isFalse();
    assertThat(dedup.isNew(delivered, 3, 0, "2024-05-01T00:00:05Z", "18", 0)).isTrue();
    assertThat(dedup.isNew(delivered, 3, 0, "2024-05-01T00:00:04Z", "99", 0)).isFalse();
    assertThat(dedup.isNew(delivered, 3, 0, "2024-05-01T00:00:06Z", "1", 0)).isTrue();
    // An offset set to a cursor alone: everything at that cursor counts as delivered.
    Position cursorOnly = Position.initial(null).delivered("2024-05-01T00:00:05Z", null);
    assertThat(dedup.isNew(cursorOnly, 0, 0, "2024-05-01T00:00:05Z", "99", 0)).isFalse();
  }

  @Test
  void withoutATiebreakerEqualCursorsAreNewOnlyInTheirOwnPass() {
    Dedup dedup = new Dedup(cursor("", CursorType.AUTO));
    Position delivered = Position.initial(null).delivered("100", null); // pass 0
    assertThat(dedup.isNew(delivered, 0, 0, "100", null, 5)).isTrue();
    assertThat(dedup.isNew(delivered, 0, 6, "100", null, 5))
        .as("handled before a restart")
        .isFalse();
    assertThat(dedup.isNew(delivered, 0, 6, "101", null, 5)).isTrue();
    assertThat(dedup.isNew(delivered, 1, 0, "100", null, 0)).as("a later pass").isFalse();
    assertThat(dedup.isNew(delivered, 1, 0, "99", null, 0)).isFalse();
  }

  @Test
  void positionsRoundTripThroughOffsetsAndACursorAloneEndsThePass() {
    Position p =
        new Position(
            "2024-05-01T00:00:05Z", "17", 4, "2024-05-01T00:00:00Z", 2, "tok", 3, 1, false);
    assertThat(PositionCodec.fromOffset(p.toOffset())).isEqualTo(p);
    assertThat(p.toOffset())
        .containsEntry("cursor", "2024-05-01T00:00:05Z")
        .containsEntry("page", 2L)
        .containsEntry("next", "tok")
        .containsEntry("pass_done", false);
    Position patched = PositionCodec.fromOffset(Map.of("cursor", 42L));
    assertThat(patched.cursor()).isEqualTo("42");
    assertThat(patched.passDone()).isTrue();
    assertThat(patched.nextPass(null).passCursor()).isEqualTo("42");
    assertThat(Position.initial("2024-01-01").nextPass("2024-01-01").passCursor())
        .isEqualTo("2024-01-01");
  }

  @Test
  void foreignOffsetsAreRefusedWithTheKey() {
    assertThatThrownBy(() -> PositionCodec.fromOffset(Map.of("pass_done", "yes")))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("'pass_done' must be true or false");
    assertThatThrownBy(() -> PositionCodec.fromOffset(Map.of("cursor", Map.of())))
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("'cursor' must be a string or number");
  }
}
