package io.skippr.connect.it;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deterministic schemaless events for the transforms test: record {@code i} has a namespace ({@code
 * type}), nested objects, an array of objects, an ISO timestamp, a formatted timestamp and epoch
 * seconds. A few indexes hold a bad record instead, each failing one transform.
 */
final class Events {
  static final int COUNT = 240;
  static final String[] TYPES = {"click", "view", "check out"};
  static final String SENT_FORMAT = "dd/MM/yyyy HH:mm:ss";

  /** Bad records: their index and the message their dead letter queue entry must carry. */
  static final Map<Integer, String> BAD =
      Map.of(
          100,
          "NormalizeTimestamp: value of topic events: sent: cannot parse string \"yesterday\" as"
              + " a timestamp (formats: "
              + SENT_FORMAT
              + ")",
          150,
          "InferSchema: value of topic events (namespace events.click): field user: expected"
              + " struct, got string \"bob\"",
          200,
          // its first item's qty is a string where the table has int32
          "InferSchema: value of topic events (namespace events.check_out): field items[0].qty:"
              + " expected int32, got string \"many\"",
          203,
          "ValidateContract: value of topic events.check_out: amount: required value is missing");

  private static final Instant START = Instant.parse("2024-05-01T00:00:00Z");
  private static final DateTimeFormatter SENT =
      DateTimeFormatter.ofPattern(SENT_FORMAT).withZone(ZoneOffset.UTC);

  private Events() {}

  static String type(int i) {
    return TYPES[i % 3];
  }

  /** The table of record {@code i}'s namespace. */
  static String table(int i) {
    return "events." + type(i).replace(' ', '_');
  }

  static Instant sent(int i) {
    return START.plusSeconds(60L * i);
  }

  static Instant created(int i) {
    return sent(i).plusSeconds(1);
  }

  static long shippedSeconds(int i) {
    return sent(i).getEpochSecond() + 3600;
  }

  static boolean hasCoupon(int i) {
    return type(i).equals("click") && i >= 120;
  }

  static Map<String, Object> value(int i) {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("id", i);
    value.put("type", type(i));
    value.put("sent", i == 100 ? "yesterday" : SENT.format(sent(i)));
    value.put("created_at", created(i).toString());
    Map<String, Object> user = new LinkedHashMap<>();
    user.put("id", i % 7);
    user.put("name", "u" + i % 7);
    value.put("user", i == 150 ? "bob" : user);
    List<Map<String, Object>> items = new ArrayList<>();
    Map<String, Object> first = new LinkedHashMap<>();
    first.put("sku", "s" + i);
    first.put("qty", i == 200 ? "many" : i % 5);
    first.put("shipped", shippedSeconds(i));
    items.add(first);
    if (i % 2 == 0) {
      items.add(Map.of("sku", "extra", "qty", 1));
    }
    value.put("items", items);
    value.put("note", null);
    if (type(i).equals("check out") && i != 203) {
      value.put("amount", i * 1.5);
    }
    if (hasCoupon(i)) {
      value.put("coupon", "c" + i);
    }
    return value;
  }

  /** How many good records the table gets. */
  static long goodRows(String table) {
    long rows = 0;
    for (int i = 0; i < COUNT; i++) {
      if (table(i).equals(table) && !BAD.containsKey(i)) {
        rows++;
      }
    }
    return rows;
  }
}
