package io.skippr.connect.it.bench;

import io.skippr.connect.testkit.Await;
import io.skippr.connect.testkit.ConnectCluster;
import io.skippr.connect.testkit.FreePorts;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Accepted rows per second through HTTP ingest with durable acknowledgements (each request is
 * answered once Kafka acknowledged its rows — or, with {@code bench.eos=true}, once the transaction
 * holding them committed) against a plain Kafka producer with acks=all sending the same rows (key
 * and line as bytes) to the same broker in the same run; then the rate one normal client gets while
 * {@code bench.slow} slow clients (one byte per second, reconnecting when answered 408) are
 * connected, against the same client alone. Also in each round: Connect's own source path on the
 * same rows ({@link BytesSourceConnector}), the ceiling of any source connector on this worker.
 * Prints figures only.
 *
 * <p>Run after {@code mvn -o install -DskipTests}: {@code mvn -o -q -pl integration-tests exec:java
 * -Dexec.classpathScope=test -Dexec.mainClass=io.skippr.connect.it.bench.HttpIngestBench}. Optional
 * system properties: {@code bench.rows} (default 300000), {@code bench.batch} (rows per request,
 * 5000), {@code bench.clients} (concurrent HTTP clients, 4), {@code bench.rounds} (3), {@code
 * bench.connectors} (ingest connectors on as many ports, one task each, clients spread over them:
 * more task threads converting records; 1), {@code bench.eos} (exactly-once worker and
 * connector-defined transactions; false), {@code bench.encodings} (the variants measured in turn in
 * each round, default {@code connect,json}: the task's thread converts Structs with JsonConverter,
 * or {@code record.encoding=json} and the request threads write the same bytes), {@code bench.slow}
 * (256 slow clients), {@code bench.slow.seconds} (15, each of the two slow-client phases).
 */
public final class HttpIngestBench {

  private static final int ROWS = Integer.getInteger("bench.rows", 300_000);
  private static final int BATCH = Integer.getInteger("bench.batch", 5_000);
  private static final int CLIENTS = Integer.getInteger("bench.clients", 4);
  private static final int ROUNDS = Integer.getInteger("bench.rounds", 3);
  private static final int CONNECTORS = Integer.getInteger("bench.connectors", 1);
  private static final boolean EOS = Boolean.getBoolean("bench.eos");
  private static final List<String> ENCODINGS =
      List.of(System.getProperty("bench.encodings", "connect,json").split(","));
  private static final int SLOW = Integer.getInteger("bench.slow", 256);
  private static final Duration SLOW_PHASE =
      Duration.ofSeconds(Integer.getInteger("bench.slow.seconds", 15));

  /** Producer batching, the same for both sides. */
  private static final int LINGER_MS = Integer.getInteger("bench.linger.ms", 20);

  private static final int BATCH_BYTES = Integer.getInteger("bench.batch.bytes", 1 << 20);

  /**
   * CPU time of this whole JVM (broker, worker, clients alike): a busy machine disturbs it less.
   */
  private static final com.sun.management.OperatingSystemMXBean CPU =
      (com.sun.management.OperatingSystemMXBean)
          java.lang.management.ManagementFactory.getOperatingSystemMXBean();

  private HttpIngestBench() {}

  /** One way of running the endpoint: its connectors' ports and how they encode values. */
  private record Variant(String name, String encoding, List<Integer> ports) {}

  public static void main(String[] args) throws Exception {
    List<byte[]> bodies = requestBodies();
    Map<String, String> worker = EOS ? Map.of("exactly.once.source.support", "enabled") : Map.of();
    try (ConnectCluster cluster = ConnectCluster.start("http-ingest-bench", 1, worker)) {
      List<Variant> variants = startVariants(cluster);
      cluster.createTopic("bench.raw", 1);
      List<byte[]> warmUp = bodies.subList(0, Math.max(1, bodies.size() / 10));
      for (Variant v : variants) {
        ingest(v.ports(), warmUp, CLIENTS);
      }
      raw(cluster, warmUp);
      double[] best = new double[variants.size()];
      double[] bestCpu = new double[variants.size()];
      double bestRaw = 0;
      double bestRawCpu = 0;
      double bestCeiling = 0;
      double bestCeilingCpu = 0;
      for (int round = 1; round <= ROUNDS; round++) {
        StringBuilder line = new StringBuilder("round " + round + ":");
        for (int i = 0; i < variants.size(); i++) {
          long cpu = CPU.getProcessCpuTime();
          double http = ingest(variants.get(i).ports(), bodies, CLIENTS);
          double perCpu = ROWS / ((CPU.getProcessCpuTime() - cpu) / 1e9);
          best[i] = Math.max(best[i], http);
          bestCpu[i] = Math.max(bestCpu[i], perCpu);
          line.append(
              String.format(
                  " %s %,.0f rows/s (%,.0f per CPU-s),", variants.get(i).name(), http, perCpu));
        }
        long cpu = CPU.getProcessCpuTime();
        double raw = raw(cluster, bodies);
        double rawPerCpu = ROWS / ((CPU.getProcessCpuTime() - cpu) / 1e9);
        bestRaw = Math.max(bestRaw, raw);
        bestRawCpu = Math.max(bestRawCpu, rawPerCpu);
        double[] ceiling = connectCeiling(cluster, round);
        bestCeiling = Math.max(bestCeiling, ceiling[0]);
        bestCeilingCpu = Math.max(bestCeilingCpu, ceiling[1]);
        System.out.println(
            line
                + String.format(
                    " raw producer %,.0f rows/s (%,.0f per CPU-s), Connect source of ready-made"
                        + " records %,.0f rows/s (%,.0f per CPU-s)",
                    raw, rawPerCpu, ceiling[0], ceiling[1]));
      }
      System.out.printf(
          "best: Connect source of ready-made records %,.0f rows/s = %.2f of the raw producer;"
              + " per CPU-second %,.0f = %.2f%n",
          bestCeiling, bestCeiling / bestRaw, bestCeilingCpu, bestCeilingCpu / bestRawCpu);
      for (int i = 0; i < variants.size(); i++) {
        System.out.printf(
            "best: http ingest %,.0f rows/s (%s, %d clients, %d rows/request, %s), raw producer"
                + " acks=all %,.0f rows/s, ratio %.2f; per CPU-second of the JVM %,.0f against"
                + " %,.0f, ratio %.2f; against Connect's own source path %.2f (per CPU-second"
                + " %.2f)%n",
            best[i],
            variants.get(i).name(),
            CLIENTS,
            BATCH,
            EOS ? "answered after each transaction's commit" : "answered after acks=all",
            bestRaw,
            best[i] / bestRaw,
            bestCpu[i],
            bestRawCpu,
            bestCpu[i] / bestRawCpu,
            best[i] / bestCeiling,
            bestCpu[i] / bestCeilingCpu);
      }
      slowClients(variants.get(0).ports(), bodies);
    }
    System.exit(0);
  }

  /** Each encoding's ingest connectors, running and listening. */
  private static List<Variant> startVariants(ConnectCluster cluster) {
    List<Variant> variants = new ArrayList<>();
    for (String encoding : ENCODINGS) {
      List<Integer> ports = new ArrayList<>();
      for (int c = 0; c < CONNECTORS; c++) {
        ports.add(FreePorts.one());
        startConnector(cluster, "bench-" + encoding + "-" + c, ports.get(c), encoding);
      }
      variants.add(
          new Variant(
              "record.encoding=" + encoding + ", " + CONNECTORS + " task(s)", encoding, ports));
    }
    return variants;
  }

  /**
   * One normal client's rate for {@link #SLOW_PHASE} alone, then as long with SLOW slow clients
   * connected to its port (answered 408 below the minimum data rate, and connecting again).
   */
  private static void slowClients(List<Integer> ports, List<byte[]> bodies) throws Exception {
    double alone = forAWhile(ports.get(0), bodies);
    double with;
    try (SlowUploads slow = new SlowUploads(ports.get(0), SLOW)) {
      slow.awaitConnected();
      with = forAWhile(ports.get(0), bodies);
      System.out.printf(
          "slow clients: one client %,.0f rows/s alone, %,.0f rows/s with %d slow clients"
              + " connected (ratio %.2f; %d slow uploads answered 408 and reconnected meanwhile)%n",
          alone, with, SLOW, with / alone, slow.refused());
    }
  }

  /** Rows per second one client gets writing requests one after another for SLOW_PHASE. */
  private static double forAWhile(int port, List<byte[]> bodies) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    URI uri = URI.create("http://127.0.0.1:" + port + "/api/v2/write?bucket=bench");
    long start = System.nanoTime();
    long end = start + SLOW_PHASE.toNanos();
    long rows = 0;
    for (int i = 0; System.nanoTime() < end; i = (i + 1) % bodies.size()) {
      HttpResponse<String> r =
          client.send(
              HttpRequest.newBuilder(uri)
                  .POST(HttpRequest.BodyPublishers.ofByteArray(bodies.get(i)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 204) {
        throw new IllegalStateException(r.statusCode() + " " + r.body());
      }
      rows += lineCount(bodies.get(i));
    }
    return rows / ((System.nanoTime() - start) / 1e9);
  }

  private static List<byte[]> requestBodies() {
    List<byte[]> bodies = new ArrayList<>();
    java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
    List<byte[]> lines = lines(ROWS);
    for (int i = 0; i < lines.size(); i++) {
      body.writeBytes(lines.get(i));
      body.write('\n');
      if ((i + 1) % BATCH == 0 || i == lines.size() - 1) {
        bodies.add(body.toByteArray());
        body.reset();
      }
    }
    return bodies;
  }

  /** The benchmark's rows: CPU line protocol, 2 tags and 5 fields, without their newlines. */
  static List<byte[]> lines(int rows) {
    List<byte[]> lines = new ArrayList<>(rows);
    StringBuilder sb = new StringBuilder();
    long t0 = 1_700_000_000_000_000_000L;
    for (int i = 0; i < rows; i++) {
      sb.setLength(0);
      sb.append("cpu,host=h")
          .append(i % 100)
          .append(",region=eu-")
          .append(i % 4)
          .append(" usage_user=")
          .append((i % 1000) / 10.0)
          .append(",usage_system=0.5,count=")
          .append(i)
          .append("i,up=t,note=\"ok\" ")
          .append(t0 + i * 1_000_000L);
      lines.add(sb.toString().getBytes(StandardCharsets.UTF_8));
    }
    return lines;
  }

  /**
   * Rows per second (and per CPU-second) of Connect's own source path on the same rows: {@link
   * BytesSourceConnector} hands over ready-made records, a request's worth per poll, with the
   * producer settings of the ingest connectors; timed from the first row in the topic to the last.
   */
  private static double[] connectCeiling(ConnectCluster cluster, int round) throws Exception {
    String name = "bench-ceiling-" + round;
    String topic = "bench.ceiling-" + round;
    cluster.createTopic(topic, 1);
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", BytesSourceConnector.class.getName());
    config.put("tasks.max", "1");
    config.put(BytesSourceConnector.TOPIC, topic);
    config.put(BytesSourceConnector.ROWS, Integer.toString(ROWS));
    config.put(BytesSourceConnector.BATCH, Integer.toString(BATCH));
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    producerOverrides(config);
    TopicPartition tp = new TopicPartition(topic, 0);
    cluster.connect().configureConnector(name, config);
    long first = Long.MIN_VALUE;
    long firstAt = 0;
    long firstCpu = 0;
    long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
    while (System.nanoTime() < deadline) {
      long end = cluster.kafka().endOffset(tp);
      if (first == Long.MIN_VALUE && end > 0) {
        first = end;
        firstAt = System.nanoTime();
        firstCpu = CPU.getProcessCpuTime();
      }
      if (end >= ROWS) {
        double rows = ROWS - first;
        double seconds = (System.nanoTime() - firstAt) / 1e9;
        double cpuSeconds = (CPU.getProcessCpuTime() - firstCpu) / 1e9;
        cluster.connect().deleteConnector(name);
        return new double[] {rows / seconds, rows / cpuSeconds};
      }
      Thread.onSpinWait();
    }
    throw new IllegalStateException(topic + " did not reach " + ROWS + " records");
  }

  private static void startConnector(
      ConnectCluster cluster, String name, int port, String encoding) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.source.http.HttpIngestSourceConnector");
    config.put("tasks.max", "1");
    config.put("server.port", Integer.toString(port));
    config.put("server.threads", Integer.toString(CLIENTS));
    config.put("topic.prefix", "bench.");
    config.put("catalog.store", "memory");
    config.put("topic.creation.default.replication.factor", "1");
    config.put("topic.creation.default.partitions", "1");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    if (encoding.equals("json")) {
      // The request threads write JsonConverter's bytes; the task's thread only sends them.
      config.put("record.encoding", "json");
      config.put("record.encoding.json.schemas.enable", "false");
      config.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    } else {
      config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
      config.put("value.converter.schemas.enable", "false");
    }
    producerOverrides(config);
    if (EOS) {
      config.put("exactly.once.support", "required");
      config.put("transaction.boundary", "connector");
    }
    cluster.connect().configureConnector(name, config);
    cluster.awaitRunning(name, 1, Duration.ofSeconds(60));
    HttpClient client = HttpClient.newHttpClient();
    Await.until(
        Duration.ofSeconds(30),
        "HTTP ingest listening",
        () -> {
          try {
            HttpRequest ping =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ping")).build();
            return client.send(ping, HttpResponse.BodyHandlers.discarding()).statusCode() == 204;
          } catch (Exception e) {
            return false;
          }
        });
  }

  /** The producer batching of every connector the benchmark runs: the raw producer's. */
  private static void producerOverrides(Map<String, String> config) {
    config.put("producer.override.linger.ms", Integer.toString(LINGER_MS));
    config.put("producer.override.batch.size", Integer.toString(BATCH_BYTES));
    config.put(
        "producer.override.max.in.flight.requests.per.connection",
        System.getProperty("bench.inflight", "5"));
  }

  /** Rows per second accepted (204) with {@code clients} concurrent clients spread over ports. */
  private static double ingest(List<Integer> ports, List<byte[]> bodies, int clients)
      throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    long start = System.nanoTime();
    List<Future<Integer>> results = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      URI uri =
          URI.create(
              "http://127.0.0.1:" + ports.get(c % ports.size()) + "/api/v2/write?bucket=bench");
      results.add(
          pool.submit(
              () -> {
                int rows = 0;
                for (int i = next.getAndIncrement();
                    i < bodies.size();
                    i = next.getAndIncrement()) {
                  HttpRequest request =
                      HttpRequest.newBuilder(uri)
                          .POST(HttpRequest.BodyPublishers.ofByteArray(bodies.get(i)))
                          .build();
                  HttpResponse<String> r =
                      client.send(request, HttpResponse.BodyHandlers.ofString());
                  if (r.statusCode() != 204) {
                    throw new IllegalStateException(r.statusCode() + " " + r.body());
                  }
                  rows += lineCount(bodies.get(i));
                }
                return rows;
              }));
    }
    int rows = 0;
    for (Future<Integer> f : results) {
      rows += f.get();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    pool.shutdown();
    return rows / seconds;
  }

  /** Rows per second sent by a plain producer (acks=all), waiting for every acknowledgement. */
  private static double raw(ConnectCluster cluster, List<byte[]> bodies) throws Exception {
    Map<String, Object> props = new HashMap<>();
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.LINGER_MS_CONFIG, LINGER_MS);
    props.put(ProducerConfig.BATCH_SIZE_CONFIG, BATCH_BYTES);
    int rows = 0;
    try (KafkaProducer<byte[], byte[]> producer = cluster.kafka().createProducer(props)) {
      long start = System.nanoTime();
      List<Future<?>> acks = new ArrayList<>(ROWS);
      for (byte[] body : bodies) {
        int from = 0;
        for (int i = 0; i < body.length; i++) {
          if (body[i] == '\n') {
            byte[] line = java.util.Arrays.copyOfRange(body, from, i);
            int space = indexOf(line, (byte) ' ');
            byte[] key = java.util.Arrays.copyOf(line, space);
            acks.add(producer.send(new ProducerRecord<>("bench.raw", key, line)));
            from = i + 1;
            rows++;
          }
        }
      }
      for (Future<?> f : acks) {
        f.get();
      }
      return rows / ((System.nanoTime() - start) / 1e9);
    }
  }

  private static int lineCount(byte[] body) {
    int n = 0;
    for (byte b : body) {
      n += b == '\n' ? 1 : 0;
    }
    return n;
  }

  static int indexOf(byte[] b, byte x) {
    for (int i = 0; i < b.length; i++) {
      if (b[i] == x) {
        return i;
      }
    }
    return b.length;
  }
}
