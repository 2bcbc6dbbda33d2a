package io.skippr.connect.state.connect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceConnector;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

/** Counts 0, 1, 2, … ; the offset of each record is its number, so a restart must continue. */
public class CountingSourceConnector extends SourceConnector {
  static final Map<String, Object> PARTITION = Map.of("counter", "numbers");
  static final String TOPIC = "numbers";
  private Map<String, String> config;

  @Override
  public void start(Map<String, String> props) {
    this.config = props;
  }

  @Override
  public Class<? extends Task> taskClass() {
    return CountingTask.class;
  }

  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    return List.of(config);
  }

  @Override
  public void stop() {}

  @Override
  public ConfigDef config() {
    return new ConfigDef();
  }

  @Override
  public String version() {
    return "test";
  }

  /** Emits five numbers per poll, paced like a slow source. */
  public static class CountingTask extends SourceTask {
    private long next;

    @Override
    public void start(Map<String, String> props) {
      Map<String, Object> offset = context.offsetStorageReader().offset(PARTITION);
      next = offset == null ? 0 : ((Number) offset.get("n")).longValue() + 1;
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
      Thread.sleep(5);
      List<SourceRecord> records = new ArrayList<>();
      for (int i = 0; i < 5; i++, next++) {
        records.add(
            new SourceRecord(PARTITION, Map.of("n", next), TOPIC, Schema.INT64_SCHEMA, next));
      }
      return records;
    }

    @Override
    public void stop() {}

    @Override
    public String version() {
      return "test";
    }
  }
}
