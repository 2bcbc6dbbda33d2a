package io.skippr.connect.cli.discover;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.SourceConnector;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

/**
 * A source for discovery tests: emits {@code records} fixed schemaless orders on {@code topic},
 * then nothing. Counts every commit call and every offset read, so tests can check that sample mode
 * commits nothing.
 */
public final class FixedSourceConnector extends SourceConnector {
  static final AtomicInteger COMMITS = new AtomicInteger();
  static final AtomicInteger OFFSETS_FOUND = new AtomicInteger();

  static final ConfigDef CONFIG =
      new ConfigDef()
          .define("topic", Type.STRING, ConfigDef.NO_DEFAULT_VALUE, Importance.HIGH, "Topic.")
          .define("records", Type.INT, 10, ConfigDef.Range.atLeast(0), Importance.HIGH, "Count.")
          .define("fail", Type.BOOLEAN, false, Importance.LOW, "Fail in poll.");

  private Map<String, String> props;

  /** Order number {@code i}: nested objects, arrays of structs, timestamps and a namespace. */
  static Map<String, Object> order(int i) {
    Map<String, Object> item = new LinkedHashMap<>();
    item.put("sku", "sku-" + i);
    item.put("qty", i);
    Map<String, Object> customer = new LinkedHashMap<>();
    customer.put("name", "c" + i);
    customer.put("vip", i % 3 == 0);
    Map<String, Object> order = new LinkedHashMap<>();
    order.put("id", i);
    order.put("type", i % 2 == 0 ? "web" : "shop");
    order.put("created_at", "2024-05-01T12:00:0" + (i % 10) + "Z");
    order.put("customer", customer);
    order.put("items", List.of(item));
    order.put("note", null);
    order.put("code", i == 1 ? "A1" : i);
    return order;
  }

  @Override
  public void start(Map<String, String> props) {
    this.props = props;
  }

  @Override
  public Class<? extends Task> taskClass() {
    return FixedTask.class;
  }

  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    return List.of(props);
  }

  @Override
  public void stop() {}

  @Override
  public ConfigDef config() {
    return CONFIG;
  }

  @Override
  public String version() {
    return "test";
  }

  /** The task. */
  public static final class FixedTask extends SourceTask {
    private String topic;
    private int remaining;
    private int next;
    private boolean fail;

    @Override
    public void start(Map<String, String> props) {
      AbstractConfig config = new AbstractConfig(CONFIG, props);
      topic = config.getString("topic");
      remaining = config.getInt("records");
      fail = config.getBoolean("fail");
      if (context.offsetStorageReader().offset(Map.of("source", "fixed")) != null) {
        OFFSETS_FOUND.incrementAndGet();
      }
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
      if (fail) {
        throw new IllegalStateException("upstream is\nunreachable");
      }
      if (remaining == 0) {
        Thread.sleep(20);
        return null;
      }
      List<SourceRecord> batch = new ArrayList<>();
      for (int i = 0; i < 3 && remaining > 0; i++, remaining--, next++) {
        batch.add(
            new SourceRecord(
                Map.of("source", "fixed"), Map.of("position", next), topic, null, order(next)));
      }
      return batch;
    }

    @Override
    public void commit() {
      COMMITS.incrementAndGet();
    }

    @Override
    public void commitRecord(SourceRecord record, RecordMetadata metadata) {
      COMMITS.incrementAndGet();
    }

    @Override
    public void stop() {}

    @Override
    public String version() {
      return "test";
    }
  }
}
