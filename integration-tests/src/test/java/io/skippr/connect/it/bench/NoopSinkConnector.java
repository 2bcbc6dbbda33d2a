package io.skippr.connect.it.bench;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/**
 * A sink that drops every record: what Connect itself costs (fetch, convert, deliver, commit
 * offsets) on a topic, the ceiling a real sink is compared with. Test-only.
 */
public final class NoopSinkConnector extends SinkConnector {
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
    return NoopSinkTask.class;
  }

  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    return Collections.nCopies(maxTasks, props);
  }

  @Override
  public void stop() {}

  @Override
  public ConfigDef config() {
    return new ConfigDef();
  }

  /** Takes records and forgets them; the default preCommit commits what was delivered. */
  public static final class NoopSinkTask extends SinkTask {
    private long count;

    @Override
    public String version() {
      return "bench";
    }

    @Override
    public void start(Map<String, String> props) {}

    @Override
    public void put(Collection<SinkRecord> records) {
      count += records.size();
    }

    @Override
    public void stop() {}

    /** Records delivered so far. */
    public long count() {
      return count;
    }
  }
}
