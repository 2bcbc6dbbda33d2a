package io.skippr.connect.cli.demo;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The rows one demo run pushes: CPU metrics of a few hosts as InfluxDB line protocol, and orders as
 * JSON. Every row carries the run id ({@code run} tag or field), so a run's rows can be told apart
 * from earlier runs' in the same lake.
 */
final class DemoLoad {
  static final String MEASUREMENT = "cpu";
  static final String STREAM = "orders";
  static final int HOSTS = 6;
  static final int POINTS_PER_HOST = 500;
  static final int CPU_ROWS = HOSTS * POINTS_PER_HOST;
  static final int ORDERS = 300;
  static final String[] REGIONS = {"eu-west", "us-east", "ap-south"};
  private static final String[] COUNTRIES = {"BR", "DE", "FR", "JP", "US"};
  private static final int LINES_PER_REQUEST = 1000;
  private static final int ORDERS_PER_REQUEST = 100;
  private static final DateTimeFormatter RUN_ID =
      DateTimeFormatter.ofPattern("'run-'yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter ISO_MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  /** One HTTP write. */
  record Request(String path, String contentType, String body, int rows) {}

  private final String run;
  private final long endMs;
  private final Random random;

  DemoLoad(Instant now) {
    this.run = RUN_ID.format(now);
    this.endMs = now.toEpochMilli();
    this.random = new Random(endMs);
  }

  String run() {
    return run;
  }

  static String host(int index) {
    return String.format(Locale.ROOT, "host-%02d", index + 1);
  }

  /**
   * One point per host and second over the last {@link #POINTS_PER_HOST} seconds, millisecond
   * timestamps. The first request uses the v1 API, the others v2.
   */
  List<Request> cpuRequests() {
    List<String> lines = new ArrayList<>(CPU_ROWS);
    for (int second = POINTS_PER_HOST; second > 0; second--) {
      for (int h = 0; h < HOSTS; h++) {
        lines.add(
            String.format(
                Locale.ROOT,
                "%s,host=%s,region=%s,run=%s usage_user=%.2f,usage_system=%.2f %d",
                MEASUREMENT,
                host(h),
                REGIONS[h % REGIONS.length],
                run,
                5 + 8 * h + 20 * random.nextDouble(),
                1 + 10 * random.nextDouble(),
                endMs - second * 1000L));
      }
    }
    List<Request> requests = new ArrayList<>();
    for (int from = 0; from < lines.size(); from += LINES_PER_REQUEST) {
      List<String> chunk = lines.subList(from, Math.min(lines.size(), from + LINES_PER_REQUEST));
      String path =
          from == 0 ? "/write?db=demo&precision=ms" : "/api/v2/write?bucket=demo&precision=ms";
      requests.add(
          new Request(path, "text/plain; charset=utf-8", String.join("\n", chunk), chunk.size()));
    }
    return requests;
  }

  /** {@link #ORDERS} orders as JSON arrays, one per second before now. */
  List<Request> orderRequests() {
    List<Request> requests = new ArrayList<>();
    for (int from = 0; from < ORDERS; from += ORDERS_PER_REQUEST) {
      StringBuilder body = new StringBuilder("[");
      int to = Math.min(ORDERS, from + ORDERS_PER_REQUEST);
      for (int i = from; i < to; i++) {
        body.append(i == from ? "" : ",").append(order(i));
      }
      requests.add(
          new Request(
              "/ingest/" + STREAM, "application/json", body.append(']').toString(), to - from));
    }
    return requests;
  }

  private String order(int i) {
    return String.format(
        Locale.ROOT,
        "{\"order_id\":%d,\"run\":\"%s\",\"customer\":\"customer-%03d\",\"country\":\"%s\","
            + "\"amount\":%.2f,\"items\":%d,\"paid\":%b,\"ordered_at\":\"%s\"}",
        i + 1,
        run,
        random.nextInt(100),
        COUNTRIES[random.nextInt(COUNTRIES.length)],
        5 + 195 * random.nextDouble(),
        1 + random.nextInt(5),
        random.nextInt(10) > 0,
        ISO_MILLIS.format(Instant.ofEpochMilli(endMs - (ORDERS - i) * 1000L)));
  }
}
