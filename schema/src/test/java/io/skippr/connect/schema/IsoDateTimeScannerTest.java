package io.skippr.connect.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IsoDateTimeScannerTest {
  private static final String DIGITS = "0123456789";

  @Test
  void readsTheCommonFormsWithoutTheFormatter() {
    for (String text :
        new String[] {
          "2024-05-01T00:00:00Z",
          "2024-05-01T02:00:00+02:00",
          "2024-04-30T19:00:00-05:00",
          "2024-05-01 00:00:00.123456789",
          "2024-05-01T00:00",
          "2024-02-29T23:59:59.9Z",
          "1969-12-31T23:59:59.999Z",
          "0001-01-01T00:00:00Z",
        }) {
      assertThat(IsoDateTimeScanner.scan(text)).as(text).isEqualTo(javaTime(text));
    }
  }

  @Test
  void leavesWhatItIsNotSureOfToTheFormatter() {
    for (String text :
        new String[] {
          "2023-02-29T00:00:00Z",
          "2024-13-01T00:00:00Z",
          "2024-05-01T24:00:00Z",
          "2024-05-01T00:60:00Z",
          "2024-05-01T00:00:60Z",
          "2024-05-01T00:00:00.Z",
          "2024-05-01T00:00:00.1234567891Z",
          "2024-05-01T02:00:00+0200",
          "2024-05-01T02:00:00+02",
          "2024-05-01T02:00:00+18:00",
          "2024-05-01T02:00:00z",
          "2024-05-01T00:00:00Zjunk",
          "2024-05-01X00:00:00Z",
        }) {
      assertThat(IsoDateTimeScanner.scan(text)).as(text).isEqualTo(IsoDateTimeScanner.UNSURE);
    }
  }

  /** Random date-times and near misses: every answer it gives is java.time's. */
  @Test
  void agreesWithJavaTimeOnRandomText() {
    Random random = new Random(42);
    int sure = 0;
    for (int i = 0; i < 200_000; i++) {
      String text = random.nextInt(4) == 0 ? mutated(random, dateTime(random)) : dateTime(random);
      if (text.length() < 16 || !text.matches("\\d{4}-\\d\\d-\\d\\d.*")) {
        continue;
      }
      long scanned = IsoDateTimeScanner.scan(text);
      if (scanned != IsoDateTimeScanner.UNSURE) {
        sure++;
        assertThat(scanned).as(text).isEqualTo(javaTime(text));
        assertThat(TemporalValues.parseIsoDateTimeMillis(text)).as(text).isEqualTo(scanned);
      }
    }
    assertThat(sure).isGreaterThan(100_000);
  }

  private static String dateTime(Random random) {
    StringBuilder text =
        new StringBuilder(
            String.format(
                "%04d-%02d-%02d%c%02d:%02d",
                random.nextInt(10_000),
                1 + random.nextInt(12),
                1 + random.nextInt(31),
                random.nextInt(5) == 0 ? ' ' : 'T',
                random.nextInt(24),
                random.nextInt(60)));
    if (random.nextInt(5) > 0) {
      text.append(String.format(":%02d", random.nextInt(60)));
      if (random.nextBoolean()) {
        text.append('.');
        for (int d = 1 + random.nextInt(9); d > 0; d--) {
          text.append(DIGITS.charAt(random.nextInt(10)));
        }
      }
    }
    switch (random.nextInt(4)) {
      case 0 -> text.append('Z');
      case 1 ->
          text.append(
              String.format(
                  "%c%02d:%02d",
                  random.nextBoolean() ? '+' : '-', random.nextInt(19), random.nextInt(60)));
      default -> {}
    }
    return text.toString();
  }

  private static String mutated(Random random, String text) {
    char[] chars = text.toCharArray();
    chars[random.nextInt(chars.length)] = "0123456789:-.TZ+ x".charAt(random.nextInt(18));
    return new String(chars);
  }

  /** What java.time's own ISO formatters make of the text; null when they reject it. */
  private static Long javaTime(String text) {
    String iso = text.charAt(10) == ' ' ? text.substring(0, 10) + 'T' + text.substring(11) : text;
    try {
      return OffsetDateTime.parse(iso, DateTimeFormatter.ISO_OFFSET_DATE_TIME)
          .toInstant()
          .toEpochMilli();
    } catch (DateTimeParseException e) {
      try {
        return LocalDateTime.parse(iso, DateTimeFormatter.ISO_LOCAL_DATE_TIME)
            .toInstant(ZoneOffset.UTC)
            .toEpochMilli();
      } catch (DateTimeParseException again) {
        return null;
      }
    }
  }
}
