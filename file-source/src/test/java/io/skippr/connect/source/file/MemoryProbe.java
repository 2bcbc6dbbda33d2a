package io.skippr.connect.source.file;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/**
 * Reads a directory with a real task in a JVM of its own (started with a small heap by {@link
 * FileSourceMemoryIT}), keeping nothing of the records but counts, and prints what it read and the
 * most heap the long-lived generation held after a collection.
 */
public final class MemoryProbe {

  private MemoryProbe() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> props = new HashMap<>();
    props.put("name", "memory-probe");
    props.put("file.dir", args[0]);
    props.put("file.format", "ndjson");
    props.put("topic", "t");
    props.put("file.min.age.ms", "0");
    props.put("poll.interval.ms", "50");
    props.put("state.mirror", "off");
    props.put("file.max.line.bytes", "1048576");
    long expected = Long.parseLong(args[1]);
    Map<Map<String, Object>, Map<String, Object>> committed = new HashMap<>();
    FileSourceTask task = new FileSourceTask();
    task.initialize(context(props, committed));
    task.start(props);
    long records = 0;
    long maxOld = 0;
    for (int polls = 0; records < expected; polls++) {
      List<SourceRecord> batch = task.poll();
      if (batch != null) {
        records += batch.size();
        SourceRecord last = batch.get(batch.size() - 1);
        committed.put(new HashMap<>(last.sourcePartition()), new HashMap<>(last.sourceOffset()));
      }
      if (polls % 20 == 0) {
        task.commit();
        maxOld = Math.max(maxOld, oldGenerationAfterGc());
      }
    }
    task.stop();
    System.out.println("records=" + records + " maxOldAfterGc=" + maxOld);
  }

  private static long oldGenerationAfterGc() {
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP
          && pool.getCollectionUsage() != null
          && !pool.getName().contains("Eden")
          && !pool.getName().contains("Survivor")) {
        used = Math.max(used, pool.getCollectionUsage().getUsed());
      }
    }
    return used;
  }

  private static SourceTaskContext context(
      Map<String, String> props, Map<Map<String, Object>, Map<String, Object>> committed) {
    return new SourceTaskContext() {
      @Override
      public Map<String, String> configs() {
        return props;
      }

      @Override
      public OffsetStorageReader offsetStorageReader() {
        return new OffsetStorageReader() {
          @Override
          public <T> Map<String, Object> offset(Map<String, T> partition) {
            return committed.get(partition);
          }

          @Override
          public <T> Map<Map<String, T>, Map<String, Object>> offsets(
              Collection<Map<String, T>> partitions) {
            Map<Map<String, T>, Map<String, Object>> out = new HashMap<>();
            partitions.forEach(p -> out.put(p, committed.get(p)));
            return out;
          }
        };
      }

      @Override
      public PluginMetrics pluginMetrics() {
        return null;
      }
    };
  }
}
