package io.skippr.connect.json;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.storage.Converter;

/**
 * Records per second of Kafka's JsonConverter and the streaming one on nested records of about 250
 * bytes (a long id, a nested object, two strings, a double, a boolean, an ISO timestamp string):
 * reading and writing, plain JSON ({@code schemas.enable=false}, schemaless values) and envelopes
 * ({@code schemas.enable=true}, Structs).
 *
 * <p>On a shared machine the load moves while a case runs, so the two converters take turns in
 * short slices, many rounds, in one JVM, and each round gives a ratio; the figures are medians. The
 * ratio of records per CPU-second of the measuring thread is the one the load disturbs least. Not
 * part of the build: {@code mvn -Pjson-bench -pl json -am verify -DskipTests} (see
 * docs/json-converter.md); arguments {@code rounds=N slice=RECORDS warmup=SECONDS}.
 */
public final class JsonConverterBench {
  static final Schema USER =
      SchemaBuilder.struct()
          .name("user")
          .field("id", Schema.INT64_SCHEMA)
          .field("name", Schema.STRING_SCHEMA)
          .field("country", Schema.OPTIONAL_STRING_SCHEMA)
          .build();
  static final Schema EVENT =
      SchemaBuilder.struct()
          .name("event")
          .field("id", Schema.INT64_SCHEMA)
          .field("user", USER)
          .field("action", Schema.STRING_SCHEMA)
          .field("page", Schema.OPTIONAL_STRING_SCHEMA)
          .field("amount", Schema.FLOAT64_SCHEMA)
          .field("ok", Schema.BOOLEAN_SCHEMA)
          .field("at", Schema.STRING_SCHEMA)
          .build();
  private static final int RECORDS = 1024;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private JsonConverterBench() {}

  /** One measured case: a direction and a setting, with both converters ready. */
  private record Case(String name, boolean write, boolean schemas, Converter[] converters) {
    Object[] values() {
      Random random = new Random(26);
      Object[] values = new Object[RECORDS];
      for (int i = 0; i < RECORDS; i++) {
        Struct event = event(random, i);
        values[i] = schemas ? event : asMap(event);
      }
      return values;
    }
  }

  /** What one slice took: records, wall and CPU nanoseconds. */
  private record Slice(long records, long wallNanos, long cpuNanos) {}

  public static void main(String[] args) {
    Map<String, Integer> options = options(args);
    int rounds = options.getOrDefault("rounds", 21);
    int slice = options.getOrDefault("slice", 20_000);
    int warmup = options.getOrDefault("warmup", 10);
    System.out.println("record: " + sample());
    System.out.printf(
        Locale.ROOT,
        "plain JSON %d bytes, envelope %d bytes on average; %d rounds of %,d records per"
            + " converter and case%n",
        averageBytes(false),
        averageBytes(true),
        rounds,
        slice);
    StringBuilder table = new StringBuilder(header());
    for (Case c : cases()) {
      table.append(measure(c, rounds, slice, warmup * 1_000_000_000L));
    }
    System.out.println(table);
  }

  private static List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    for (boolean write : new boolean[] {false, true}) {
      for (boolean schemas : new boolean[] {false, true}) {
        String name = (write ? "write " : "read ") + (schemas ? "envelope" : "plain");
        cases.add(new Case(name, write, schemas, converters(schemas)));
      }
    }
    return cases;
  }

  private static Converter[] converters(boolean schemas) {
    Map<String, Object> props = Map.of("schemas.enable", schemas);
    Converter kafka = new JsonConverter();
    kafka.configure(props, false);
    Converter streaming = new StreamingJsonConverter();
    streaming.configure(props, false);
    return new Converter[] {kafka, streaming};
  }

  private static String measure(Case c, int rounds, int slice, long warmupNanos) {
    Object[] values = c.values();
    byte[][] bytes = new byte[RECORDS][];
    Schema schema = c.schemas() ? EVENT : null;
    for (int i = 0; i < RECORDS; i++) {
      bytes[i] = c.converters()[0].fromConnectData("t", schema, values[i]);
    }
    long until = System.nanoTime() + warmupNanos;
    while (System.nanoTime() < until) {
      run(c, c.converters()[0], values, bytes, slice / 4);
      run(c, c.converters()[1], values, bytes, slice / 4);
    }
    double[][] wall = new double[2][rounds];
    double[][] cpu = new double[2][rounds];
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < 2; k++) {
        int which = (r + k) % 2; // who goes first alternates
        Slice s = run(c, c.converters()[which], values, bytes, slice);
        wall[which][r] = s.records() * 1e9 / s.wallNanos();
        cpu[which][r] = s.records() * 1e9 / Math.max(1, s.cpuNanos());
      }
    }
    return row(c.name(), wall, cpu);
  }

  private static Slice run(Case c, Converter converter, Object[] values, byte[][] bytes, int n) {
    Schema schema = c.schemas() ? EVENT : null;
    long sink = 0;
    long cpu0 = THREADS.getCurrentThreadCpuTime();
    long wall0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      int at = i & (RECORDS - 1);
      if (c.write()) {
        sink += converter.fromConnectData("t", schema, values[at]).length;
      } else {
        sink += converter.toConnectData("t", bytes[at]).hashCode();
      }
    }
    long wall = System.nanoTime() - wall0;
    long cpu = THREADS.getCurrentThreadCpuTime() - cpu0;
    if (sink == 42) {
      System.out.print(""); // keeps the results alive
    }
    return new Slice(n, wall, cpu);
  }

  private static String header() {
    return String.format(
        Locale.ROOT,
        "%n| case | Kafka's JsonConverter, records/s | StreamingJsonConverter, records/s |"
            + " ratio (wall) | ratio (per CPU-second) |%n| --- | ---: | ---: | ---: | ---: |%n");
  }

  private static String row(String name, double[][] wall, double[][] cpu) {
    int rounds = wall[0].length;
    double[] wallRatios = new double[rounds];
    double[] cpuRatios = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      wallRatios[r] = wall[1][r] / wall[0][r];
      cpuRatios[r] = cpu[1][r] / cpu[0][r];
    }
    return String.format(
        Locale.ROOT,
        "| %s | %,.0f | %,.0f | %.2f (%.2f–%.2f) | %.2f (%.2f–%.2f) |%n",
        name,
        median(wall[0]),
        median(wall[1]),
        median(wallRatios),
        quartile(wallRatios, 1),
        quartile(wallRatios, 3),
        median(cpuRatios),
        quartile(cpuRatios, 1),
        quartile(cpuRatios, 3));
  }

  private static double median(double[] values) {
    return quartile(values, 2);
  }

  private static double quartile(double[] values, int q) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[Math.min(sorted.length - 1, sorted.length * q / 4)];
  }

  private static Map<String, Integer> options(String[] args) {
    Map<String, Integer> options = new HashMap<>();
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      if (kv.length == 2) {
        options.put(kv[0], Integer.parseInt(kv[1]));
      }
    }
    return options;
  }

  static Struct event(Random random, int i) {
    Struct user =
        new Struct(USER)
            .put("id", 1_000_000L + random.nextInt(1_000_000))
            .put("name", "customer-" + Integer.toHexString(random.nextInt()))
            .put("country", random.nextBoolean() ? "DE" : "NZ");
    return new Struct(EVENT)
        .put("id", 9_000_000_000L + i)
        .put("user", user)
        .put("action", random.nextBoolean() ? "checkout.completed" : "cart.item_added")
        .put(
            "page",
            "/shop/category/"
                + random.nextInt(500)
                + "/item/"
                + random.nextInt(100000)
                + "?utm_source=newsletter&utm_medium=email")
        .put("amount", Math.round(random.nextDouble() * 100_000) / 100.0)
        .put("ok", random.nextBoolean())
        .put(
            "at",
            String.format(
                Locale.ROOT,
                "2026-12-01T%02d:%02d:%02d.%03dZ",
                random.nextInt(24),
                random.nextInt(60),
                random.nextInt(60),
                random.nextInt(1000)));
  }

  static Map<String, Object> asMap(Struct struct) {
    Map<String, Object> map = new HashMap<>();
    for (var field : struct.schema().fields()) {
      Object value = struct.get(field);
      map.put(field.name(), value instanceof Struct nested ? asMap(nested) : value);
    }
    return map;
  }

  private static int averageBytes(boolean schemas) {
    Random random = new Random(26);
    Converter c = new StreamingJsonConverter();
    c.configure(Map.of("schemas.enable", schemas), false);
    long total = 0;
    for (int i = 0; i < RECORDS; i++) {
      Struct event = event(random, i);
      total +=
          c.fromConnectData("t", schemas ? EVENT : null, schemas ? event : asMap(event)).length;
    }
    return (int) (total / RECORDS);
  }

  private static String sample() {
    Converter c = new StreamingJsonConverter();
    c.configure(Map.of("schemas.enable", false), false);
    return new String(
        c.fromConnectData("t", null, asMap(event(new Random(26), 0))), StandardCharsets.UTF_8);
  }
}
