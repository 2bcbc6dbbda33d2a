package io.skippr.connect.lake.partition;

import java.util.List;

/** Builds the configured {@link Partitioner}. */
public final class Partitioners {
  private Partitioners() {}

  /**
   * A partitioner for the configuration. Instances are not thread-safe (the time partitioner keeps
   * its last directory): use one per task.
   */
  public static Partitioner create(PartitioningConfig config) {
    return switch (config.kind()) {
      case DEFAULT -> new DefaultPartitioner();
      case FIELD -> new FieldPartitioner(config.fieldNames());
      case TIME -> new TimePartitioner(config);
      case FIELD_TIME ->
          new CompositePartitioner(
              List.of(new FieldPartitioner(config.fieldNames()), new TimePartitioner(config)));
    };
  }
}
