package io.skippr.connect.json;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.storage.Converter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Records per second of Kafka's JsonConverter and the streaming one, in the same run, on nested
 * records of about 250 bytes (a long id, a nested object, two strings, a double, a boolean, an ISO
 * timestamp string): reading and writing, plain JSON ({@code schemas.enable=false}, schemaless
 * values) and envelopes ({@code schemas.enable=true}, Structs). Not part of the build; run with
 * {@code mvn -o -Pbench -pl json -am verify -DskipTests} (see docs/json-converter.md).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class JsonConverterBench {
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

  @Param({"kafka", "streaming"})
  public String converter;

  @Param({"false", "true"})
  public boolean schemas;

  private Converter instance;
  private Object[] values;
  private byte[][] bytes;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    Map<String, Object> props = Map.of("schemas.enable", schemas);
    instance =
        converter.equals("kafka")
            ? new org.apache.kafka.connect.json.JsonConverter()
            : new StreamingJsonConverter();
    instance.configure(props, false);
    Random random = new Random(26);
    values = new Object[RECORDS];
    bytes = new byte[RECORDS][];
    for (int i = 0; i < RECORDS; i++) {
      Struct event = event(random, i);
      values[i] = schemas ? event : asMap(event);
      bytes[i] = instance.fromConnectData("t", schemas ? EVENT : null, values[i]);
    }
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

  @Benchmark
  public Object read() {
    next = (next + 1) & (RECORDS - 1);
    return instance.toConnectData("t", bytes[next]);
  }

  @Benchmark
  public byte[] write() {
    next = (next + 1) & (RECORDS - 1);
    return instance.fromConnectData("t", schemas ? EVENT : null, values[next]);
  }

  /** Runs every case and prints records/s and the streaming converter's ratio to Kafka's. */
  public static void main(String[] args) throws Exception {
    // JMH's own options pass through, e.g. -wi 1 -i 2 -r 1s for a quick look.
    Options options =
        new OptionsBuilder()
            .parent(new CommandLineOptions(args))
            .include(JsonConverterBench.class.getSimpleName())
            .build();
    Collection<RunResult> results = new Runner(options).run();
    Map<String, Double> rates = new TreeMap<>();
    for (RunResult result : results) {
      var params = result.getParams();
      String key =
          params.getBenchmark().replaceAll(".*\\.", "")
              + (params.getParam("schemas").equals("true") ? " envelope" : " plain")
              + " "
              + params.getParam("converter");
      rates.put(key, result.getPrimaryResult().getScore());
    }
    System.out.println("record: " + sample());
    System.out.printf(
        Locale.ROOT,
        "plain JSON %d bytes, envelope %d bytes on average%n",
        averageBytes(false),
        averageBytes(true));
    System.out.println(table(rates));
  }

  static String table(Map<String, Double> rates) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%n| case | Kafka's JsonConverter, records/s | "
                + "StreamingJsonConverter, records/s | ratio |%n| --- | ---: | ---: | ---: |%n"));
    List<String> cases = new ArrayList<>();
    for (String key : rates.keySet()) {
      String base = key.substring(0, key.lastIndexOf(' '));
      if (!cases.contains(base)) {
        cases.add(base);
      }
    }
    for (String base : cases) {
      Double kafka = rates.get(base + " kafka");
      Double streaming = rates.get(base + " streaming");
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %,.0f | %,.0f | %.2f |%n",
              base,
              kafka,
              streaming,
              streaming / kafka));
    }
    return out.toString();
  }

  /** The size of the records measured, for the report. */
  static int averageBytes(boolean schemas) {
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

  static String sample() {
    Converter c = new StreamingJsonConverter();
    c.configure(Map.of("schemas.enable", false), false);
    return new String(
        c.fromConnectData("t", null, asMap(event(new Random(26), 0))), StandardCharsets.UTF_8);
  }
}
