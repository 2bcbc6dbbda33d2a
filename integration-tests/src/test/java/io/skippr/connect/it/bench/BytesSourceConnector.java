package io.skippr.connect.it.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceConnector;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

/**
 * A source that sends {@code bench.rows} ready-made records (the ingest benchmark's line protocol
 * rows: the series as a string key, the line as bytes) as fast as Connect takes them, then idles:
 * what Connect's source path itself costs (poll, convert, send, acknowledge each record), the
 * ceiling a real source connector is compared with. Test-only.
 */
public final class BytesSourceConnector extends SourceConnector {
  static final String TOPIC = "bench.topic";
  static final String ROWS = "bench.rows";
  static final String BATCH = "bench.batch";

  private Map<String, String> props;

  @Override
  public String version() {
    return "bench";
  }

  @Override
  public void start(Map<String, String> props) {
    this.props = props;
  }

  @Override
  public Class<? extends Task> taskClass() {
    return BytesSourceTask.class;
  }

  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    return Collections.nCopies(1, props);
  }

  @Override
  public void stop() {}

  @Override
  public ConfigDef config() {
    return new ConfigDef();
  }

  /** Makes every record at start, so that polling costs only handing them over. */
  public static final class BytesSourceTask extends SourceTask {
    private List<SourceRecord> records;
    private int batch;
    private int next;

    @Override
    public String version() {
      return "bench";
    }

    @Override
    public void start(Map<String, String> props) {
      String topic = props.get(TOPIC);
      batch = Integer.parseInt(props.get(BATCH));
      List<byte[]> lines = HttpIngestBench.lines(Integer.parseInt(props.get(ROWS)));
      records = new ArrayList<>(lines.size());
      for (byte[] line : lines) {
        String key =
            new String(line, 0, HttpIngestBench.indexOf(line, (byte) ' '), StandardCharsets.UTF_8);
        records.add(
            new SourceRecord(
                null, null, topic, null, Schema.STRING_SCHEMA, key, Schema.BYTES_SCHEMA, line));
      }
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
      if (next >= records.size()) {
        TimeUnit.MILLISECONDS.sleep(100); // all sent: Connect polls again, nothing to hand over
        return null;
      }
      List<SourceRecord> out = records.subList(next, Math.min(records.size(), next + batch));
      next += out.size();
      return new ArrayList<>(out);
    }

    @Override
    public void stop() {}
  }
}
