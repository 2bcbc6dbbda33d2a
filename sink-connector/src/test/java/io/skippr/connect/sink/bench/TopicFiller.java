package io.skippr.connect.sink.bench;

import io.skippr.connect.lake.bench.BenchRows;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Fills a topic with {@link BenchRows} as JSON, the way JsonConverter writes them with or without
 * the schema envelope, so the end-to-end bench consumes the same rows the task bench puts. Keys are
 * distinct, so a topic of several partitions gets about as many records in each.
 */
final class TopicFiller {
  private TopicFiller() {}

  static void fill(
      String bootstrap, String topic, long rows, boolean withSchema, BenchRows.Payload payload)
      throws Exception {
    Map<String, Object> props =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.LINGER_MS_CONFIG,
            20,
            ProducerConfig.BATCH_SIZE_CONFIG,
            256 * 1024,
            ProducerConfig.COMPRESSION_TYPE_CONFIG,
            "lz4",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            true);
    BenchRows.Json json = new BenchRows.Json();
    long start = System.nanoTime();
    long bytes = 0;
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (long i = 0; i < rows; i++) {
        byte[] value = json.bytes(payload.row(i, 1), withSchema);
        bytes += value.length;
        producer.send(
            new ProducerRecord<>(topic, ("order-" + i).getBytes(StandardCharsets.UTF_8), value));
      }
      producer.flush();
    }
    System.out.printf(
        Locale.ROOT,
        "filled %s with %,d rows (%,d value bytes, %.0f per row) in %.1f s%n",
        topic,
        rows,
        bytes,
        bytes / (double) rows,
        (System.nanoTime() - start) / 1e9);
    System.out.printf(
        Locale.ROOT, "RESULT stage=fill topic=%s rows=%d value_bytes=%d%n", topic, rows, bytes);
  }
}
