package io.skippr.connect.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TemporalValuesTest {
  @Test
  void parsesIsoDateTimesInAnyOffsetForm() {
    assertThat(TemporalValues.parseIsoDateTimeMillis("2024-05-01T00:00:00Z"))
        .isEqualTo(1714521600000L);
    assertThat(TemporalValues.parseIsoDateTimeMillis("2024-05-01T02:00:00+02:00"))
        .isEqualTo(1714521600000L);
    assertThat(TemporalValues.parseIsoDateTimeMillis("2024-05-01T02:00:00+0200"))
        .isEqualTo(1714521600000L);
    assertThat(TemporalValues.parseIsoDateTimeMillis("2024-05-01T02:00:00+02"))
        .isEqualTo(1714521600000L);
    assertThat(TemporalValues.parseIsoDateTimeMillis("2024-04-30T19:00:00-05:00"))
        .isEqualTo(1714521600000L);
    assertThat(TemporalValues.parseIsoDateTimeMillis("2024-05-01 00:00:00.123456789"))
        .isEqualTo(1714521600123L);
    assertThat(TemporalValues.parseIsoDateTimeMillis("2024-05-01T00:00")).isEqualTo(1714521600000L);
    assertThat(TemporalValues.parseIsoDateTimeMillis("2024-05-01X00:00:00Z")).isNull();
    assertThat(TemporalValues.parseIsoDateTimeMillis("2024-05-01T00:00:00Zjunk")).isNull();
    assertThat(TemporalValues.parseIsoDateTimeMillis("2024-05-01T0:00:00Z")).isNull();
    assertThat(TemporalValues.parseIsoDate("1969-12-31")).isEqualTo(-1);
    assertThat(TemporalValues.parseIsoDate("2023-02-29")).isNull();
  }

  @Test
  void timeLikeNames() {
    for (String name :
        new String[] {
          "ts",
          "time",
          "timestamp",
          "TIMESTAMP",
          "created_at",
          "createdAt",
          "eventTime",
          "event_time",
          "event-ts",
          "ts_ms",
          "time_millis",
          "updated_at_seconds",
          "epoch",
          "log.timestamp"
        }) {
      assertThat(TemporalValues.isTimeLikeName(name)).as(name).isTrue();
    }
    for (String name :
        new String[] {"at", "count", "times", "status", "ms", "", "_", "hat", "latitude", "date"}) {
      assertThat(TemporalValues.isTimeLikeName(name)).as(name).isFalse();
    }
    assertThat(TemporalValues.isTimeLikeName(null)).isFalse();
  }

  @Test
  void plausibleEpochRange() {
    assertThat(TemporalValues.plausibleEpochMillis(631_152_000)).isEqualTo(631_152_000_000L);
    assertThat(TemporalValues.plausibleEpochMillis(631_151_999)).isNull();
    assertThat(TemporalValues.plausibleEpochMillis(4_102_444_799L)).isEqualTo(4_102_444_799_000L);
    assertThat(TemporalValues.plausibleEpochMillis(4_102_444_800L)).isNull();
    assertThat(TemporalValues.plausibleEpochMillis(1_714_567_890_123L))
        .isEqualTo(1_714_567_890_123L);
    assertThat(TemporalValues.plausibleEpochMillis(1_714_567_890_123_000L)).isNull();
  }
}
