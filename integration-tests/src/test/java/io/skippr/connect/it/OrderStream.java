package io.skippr.connect.it;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * Produces the deterministic {@link Orders} in a thread of its own at a steady rate, round-robin
 * over the partitions, so data keeps flowing while workers come and go. The record at (partition,
 * offset) is always {@code Orders.value(partition, offset)}: the producer is idempotent and sends
 * each partition's records in order.
 */
final class OrderStream implements AutoCloseable {
  /** Records per partition sent between two looks at the clock. */
  private static final int CHUNK = 250;

  private static final int TRICKLE_SLOWDOWN = 10;

  private final KafkaProducer<byte[], byte[]> producer;
  private final String topic;
  private final int partitions;
  private final double perSecond;
  private final long minPerPartition;
  private final AtomicLong sentPerPartition = new AtomicLong();
  private final AtomicReference<Exception> failure = new AtomicReference<>();
  private final Thread thread;
  private volatile boolean finishing;
  private volatile boolean aborted;

  private OrderStream(
      KafkaProducer<byte[], byte[]> producer,
      String topic,
      int partitions,
      double perSecond,
      long minPerPartition) {
    this.producer = producer;
    this.topic = topic;
    this.partitions = partitions;
    this.perSecond = perSecond;
    this.minPerPartition = minPerPartition;
    this.thread = new Thread(this::run, "order-stream-" + topic);
    thread.setDaemon(true);
  }

  /**
   * Starts producing {@code perSecond} records a second in total up to {@code minPerPartition}
   * records per partition, then a tenth of that, until {@link #finish}.
   */
  static OrderStream start(
      ChaosStack stack, String topic, int partitions, double perSecond, long minPerPartition) {
    OrderStream stream =
        new OrderStream(stack.producer(), topic, partitions, perSecond, minPerPartition);
    stream.thread.start();
    return stream;
  }

  /** Records per partition sent so far. */
  long sentPerPartition() {
    return sentPerPartition.get();
  }

  /**
   * Ends the stream: the rest up to the minimum goes out at full speed, then every record is
   * acknowledged.
   *
   * @return the records per partition in the topic
   */
  long finish(Duration timeout) throws Exception {
    finishing = true;
    thread.join(timeout.toMillis());
    if (thread.isAlive()) {
      close();
      throw new AssertionError("order stream still producing after " + timeout);
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    return sentPerPartition.get();
  }

  @Override
  public void close() throws InterruptedException {
    aborted = true;
    thread.join(TimeUnit.SECONDS.toMillis(30));
    producer.close(Duration.ofSeconds(10));
  }

  private void run() {
    JsonConverter converter = ChaosStack.orderConverter();
    long start = System.nanoTime();
    long next = 0;
    try {
      while (!aborted && failure.get() == null && !(finishing && next >= minPerPartition)) {
        for (long end = next + CHUNK; next < end; next++) {
          for (int p = 0; p < partitions; p++) {
            producer.send(
                ChaosStack.order(converter, topic, p, next),
                (metadata, e) -> {
                  if (e != null) {
                    failure.compareAndSet(null, e);
                  }
                });
          }
        }
        sentPerPartition.set(next);
        pace(start, next);
      }
      producer.flush();
    } catch (RuntimeException e) {
      failure.compareAndSet(null, e);
    } catch (InterruptedException e) {
      failure.compareAndSet(null, e);
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Holds the rate: sleeps until the records sent so far are due, not once finishing. Past the
   * minimum a trickle of a tenth of the rate keeps data flowing without piling up records.
   */
  private void pace(long startNanos, long perPartition) throws InterruptedException {
    long normal = Math.min(perPartition, minPerPartition);
    long trickle = perPartition - normal;
    double seconds = (normal + TRICKLE_SLOWDOWN * trickle) * partitions / perSecond;
    long dueNanos = startNanos + (long) (seconds * 1e9);
    while (!finishing && !aborted) {
      long aheadMillis = (dueNanos - System.nanoTime()) / 1_000_000;
      if (aheadMillis <= 0) {
        return;
      }
      Thread.sleep(Math.min(aheadMillis, 100));
    }
  }
}
