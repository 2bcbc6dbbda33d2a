package io.skippr.connect.source.file;

import io.skippr.connect.common.ProjectVersion;
import io.skippr.connect.common.SourceCatchUp;
import io.skippr.connect.source.common.metrics.MetricOwners;
import io.skippr.connect.source.file.config.FileSourceConfig;
import io.skippr.connect.source.file.engine.FileSourceEngine;
import io.skippr.connect.source.file.engine.FileSourceParts;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

/**
 * Thin lifecycle around {@link FileSourceEngine}: {@link #poll()} reads a batch of the task's
 * files, {@link #commit()} (after Connect committed offsets, or a transaction) lets the engine read
 * the committed offsets back, mirror them and complete the files they finish. A poll with nothing
 * to read tells {@link SourceCatchUp} whether every listed file has been read.
 */
public final class FileSourceTask extends SourceTask {

  /** Orders this worker's instances of the task: the newest publishes the metrics. */
  private final long instance = MetricOwners.nextInstance();

  private FileSourceEngine engine;
  private String connector;

  @Override
  public String version() {
    return ProjectVersion.get();
  }

  @Override
  public void start(Map<String, String> props) {
    FileSourceConfig.Values config = FileSourceConfig.from(props);
    engine = FileSourceParts.engine(config, props, context, instance, System::currentTimeMillis);
    connector = props.get("name");
  }

  @Override
  public List<SourceRecord> poll() throws InterruptedException {
    List<SourceRecord> records = engine.poll();
    if (records == null) {
      SourceCatchUp.report(connector, this, engine.caughtUp());
    }
    return records;
  }

  @Override
  public void commit() {
    if (engine != null) {
      engine.committed(context.offsetStorageReader());
    }
  }

  @Override
  public void stop() {
    if (engine != null) {
      engine.close();
    }
    SourceCatchUp.forget(connector, this);
  }
}
