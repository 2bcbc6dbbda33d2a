package io.skippr.connect.sink;

import io.skippr.connect.common.ProjectVersion;
import io.skippr.connect.lake.session.LakeSession;
import io.skippr.connect.lake.session.LakeSessionFactory;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connect's task lifecycle over one {@link LakeSession}. Offsets are committed only through {@link
 * #preCommit}: the end of each TP's last committed unit, never what is merely buffered. The session
 * starts the task's threads (units committed, files written, maintenance) and {@link #stop} ends
 * them.
 */
public class LakeSinkTask extends SinkTask {
  private static final Logger LOG = LoggerFactory.getLogger(LakeSinkTask.class);

  private LakeSession session;

  @Override
  public String version() {
    return ProjectVersion.get();
  }

  @Override
  public void start(Map<String, String> props) {
    session = LakeSessionFactory.of(props).start(context);
    LOG.info("Lake sink task {} writing to {}", session.owner(), session.location());
  }

  @Override
  public void open(Collection<TopicPartition> partitions) {
    session.open(partitions);
  }

  @Override
  public void put(Collection<SinkRecord> records) {
    session.put(records);
  }

  @Override
  public Map<TopicPartition, OffsetAndMetadata> preCommit(
      Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
    return session.preCommit();
  }

  @Override
  public void close(Collection<TopicPartition> partitions) {
    if (session != null) {
      session.close(partitions);
    }
  }

  @Override
  public void stop() {
    if (session != null) {
      session.stop();
    }
  }
}
