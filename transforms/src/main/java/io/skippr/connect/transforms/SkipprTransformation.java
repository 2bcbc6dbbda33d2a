package io.skippr.connect.transforms;

import io.skippr.connect.common.ProjectVersion;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.transforms.Transformation;

/** What every transformation of this plugin shares: its version and holding no resources. */
abstract class SkipprTransformation<R extends ConnectRecord<R>> implements Transformation<R> {
  @Override
  public String version() {
    return ProjectVersion.get();
  }

  @Override
  public void close() {}
}
