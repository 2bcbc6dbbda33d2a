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

/**
 * Accepted rows per second through HTTP ingest with durable acknowledgements (each request waits
 * until Kafka acknowledged its rows) against a plain Kafka producer with acks=all sending the same
 * rows (series key and line as bytes) to the same broker. Prints figures only.
 *
 * <p>Run after {@code mvn -o package -DskipTests}: {@code mvn -o -q -pl integration-tests exec:java
 * -Dexec.classpathScope=test -Dexec.mainClass=io.skippr.connect.it.bench.HttpIngestBench}. Optional
 * system properties: {@code bench.rows} (default 300000), {@code bench.batch} (rows per request,
 * 5000), {@code bench.clients} (concurrent HTTP clients, 4), {@code bench.rounds} (3).
 */
public final class HttpIngestBench {

  private static final int ROWS = Integer.getInteger("bench.rows", 300_000);
  private static final int BATCH = Integer.getInteger("bench.batch", 5_000);
  private static final int CLIENTS = Integer.getInteger("bench.clients", 4);
  private static final int ROUNDS = Integer.getInteger("bench.rounds", 3);

  /** Producer batching, the same for both sides. */
  private static final int LINGER_MS = Integer.getInteger("bench.linger.ms", 20);

  private static final int BATCH_BYTES = Integer.getInteger("bench.batch.bytes", 1 << 20);

  private HttpIngestBench() {}

  public static void main(String[] args) throws Exception {
    List<byte[]> bodies = requestBodies();
    try (ConnectCluster cluster = ConnectCluster.start("http-ingest-bench")) {
      int port = FreePorts.one();
      startConnector(cluster, port);
      cluster.createTopic("bench.raw", 1);
      double bestHttp = 0;
      double bestRaw = 0;
      ingest(port, bodies.subList(0, Math.max(1, bodies.size() / 10)));
      raw(cluster, bodies.subList(0, Math.max(1, bodies.size() / 10)));
      for (int round = 1; round <= ROUNDS; round++) {
        double http = ingest(port, bodies);
        printProducerMetrics("connector-producer-bench-0");
        double raw = raw(cluster, bodies);
        bestHttp = Math.max(bestHttp, http);
        bestRaw = Math.max(bestRaw, raw);
        System.out.printf(
            "round %d: http ingest %,.0f rows/s, raw producer %,.0f rows/s, ratio %.2f%n",
            round, http, raw, http / raw);
      }
      System.out.printf(
          "best: http ingest %,.0f rows/s (%d clients, %d rows/request), raw producer acks=all"
              + " %,.0f rows/s, ratio %.2f%n",
          bestHttp, CLIENTS, BATCH, bestRaw, bestHttp / bestRaw);
    }
    System.exit(0);
  }

  private static List<byte[]> requestBodies() {
    List<byte[]> bodies = new ArrayList<>();
    StringBuilder sb = new StringBuilder();
    long t0 = 1_700_000_000_000_000_000L;
    for (int i = 0; i < ROWS; i++) {
      sb.append("cpu,host=h")
          .append(i % 100)
          .append(",region=eu-")
          .append(i % 4)
          .append(" usage_user=")
          .append((i % 1000) / 10.0)
          .append(",usage_system=0.5,count=")
          .append(i)
          .append("i,up=t,note=\"ok\" ")
          .append(t0 + i * 1_000_000L)
          .append('\n');
      if ((i + 1) % BATCH == 0 || i == ROWS - 1) {
        bodies.add(sb.toString().getBytes(StandardCharsets.UTF_8));
        sb.setLength(0);
      }
    }
    return bodies;
  }

  private static void startConnector(ConnectCluster cluster, int port) {
    Map<String, String> config = new HashMap<>();
    config.put("connector.class", "io.skippr.connect.source.http.HttpIngestSourceConnector");
    config.put("tasks.max", "1");
    config.put("server.port", Integer.toString(port));
    config.put("server.threads", Integer.toString(CLIENTS));
    config.put("topic.prefix", "bench.");
    config.put("topic.creation.default.replication.factor", "1");
    config.put("topic.creation.default.partitions", "1");
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "false");
    config.put("producer.override.linger.ms", Integer.toString(LINGER_MS));
    config.put("producer.override.batch.size", Integer.toString(BATCH_BYTES));
    config.put(
        "producer.override.max.in.flight.requests.per.connection",
        System.getProperty("bench.inflight", "5"));
    cluster.connect().configureConnector("bench", config);
    cluster.awaitRunning("bench", 1, Duration.ofSeconds(60));
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

  /** Rows per second accepted (204) by HTTP ingest with CLIENTS concurrent clients. */
  private static double ingest(int port, List<byte[]> bodies) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    URI uri = URI.create("http://127.0.0.1:" + port + "/api/v2/write?bucket=bench");
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    long start = System.nanoTime();
    List<Future<Integer>> results = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
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
                  rows += lines(bodies.get(i));
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

  private static void printProducerMetrics(String clientId) throws Exception {
    javax.management.MBeanServer mbs =
        java.lang.management.ManagementFactory.getPlatformMBeanServer();
    javax.management.ObjectName name =
        new javax.management.ObjectName(
            "kafka.producer:type=producer-metrics,client-id=" + clientId);
    for (String a :
        List.of(
            "request-latency-avg",
            "record-queue-time-avg",
            "batch-size-avg",
            "records-per-request-avg",
            "requests-in-flight",
            "bufferpool-wait-ratio",
            "record-send-rate",
            "request-rate")) {
      System.out.printf("  producer %s = %s%n", a, mbs.getAttribute(name, a));
    }
  }

  private static int lines(byte[] body) {
    int n = 0;
    for (byte b : body) {
      n += b == '\n' ? 1 : 0;
    }
    return n;
  }

  private static int indexOf(byte[] b, byte x) {
    for (int i = 0; i < b.length; i++) {
      if (b[i] == x) {
        return i;
      }
    }
    return b.length;
  }
}
