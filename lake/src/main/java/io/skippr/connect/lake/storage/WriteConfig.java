package io.skippr.connect.lake.storage;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;

/**
 * How a cut unit is written: on which thread, and how many of its files at once. It never shapes a
 * file's name or bytes, so it is not part of the configuration fingerprint: changing it does not
 * abandon a pending unit.
 */
public final class WriteConfig {
  public static final String GROUP = "Writing";

  public static final String WRITE_CONCURRENCY = "write.concurrency";
  public static final int DEFAULT_WRITE_CONCURRENCY = 4;
  public static final int MAX_WRITE_CONCURRENCY = 64;
  private static final String WRITE_CONCURRENCY_DOC =
      "How many files of one unit are encoded and stored at the same time, on threads of the task."
          + " A unit writes one file per table partition path; when it spans many paths (the"
          + " field or time partitioner), writing them side by side overlaps Parquet encoding,"
          + " fsyncs and, above all, S3 uploads. Each file being written holds its Parquet writer"
          + " (at most parquet.row.group.bytes, about the encoded size of the path's rows) and, on"
          + " S3, one part buffer (s3.part.size) besides the rows buffer.max.bytes already counts."
          + " 1 writes them one after another on the task's thread. The files, their order in the"
          + " log and a replay's result do not depend on it.";

  public static final String WRITE_ASYNC = "write.async";
  private static final String WRITE_ASYNC_DOC =
      "Write a cut unit on a thread of its own while the task goes on buffering the next records,"
          + " so Parquet encoding and storage overlap with Connect's fetching and converting."
          + " Units of different topic partitions queue up and are written in the order they"
          + " were cut; at most one unit per topic partition is in flight: that partition's next"
          + " unit waits for it, and so do closing partitions and reaching buffer.max.bytes"
          + " (which counts units in flight until they are committed). preCommit does not wait:"
          + " Kafka offsets advance past a unit at the"
          + " first offset commit after it is committed. false writes each unit inside put, on"
          + " the task's thread.";

  private WriteConfig() {}

  public static ConfigDef define(ConfigDef def) {
    return def.define(
            WRITE_ASYNC,
            ConfigDef.Type.BOOLEAN,
            true,
            ConfigDef.Importance.LOW,
            WRITE_ASYNC_DOC,
            GROUP,
            0,
            ConfigDef.Width.SHORT,
            "Write units in the background")
        .define(
            WRITE_CONCURRENCY,
            ConfigDef.Type.INT,
            DEFAULT_WRITE_CONCURRENCY,
            ConfigDef.Range.between(1, MAX_WRITE_CONCURRENCY),
            ConfigDef.Importance.LOW,
            WRITE_CONCURRENCY_DOC,
            GROUP,
            1,
            ConfigDef.Width.SHORT,
            "Files written at once");
  }

  public static boolean writeAsync(AbstractConfig config) {
    return config.getBoolean(WRITE_ASYNC);
  }

  public static int writeConcurrency(AbstractConfig config) {
    return config.getInt(WRITE_CONCURRENCY);
  }
}
