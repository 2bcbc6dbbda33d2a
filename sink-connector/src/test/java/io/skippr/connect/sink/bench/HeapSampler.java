package io.skippr.connect.sink.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Heap figures of one run: the baseline (heap used after a full collection before the run), the
 * most heap in use after any collection during the run (from GC notifications: live data plus old
 * garbage a young collection did not reach, so an upper bound of what the run kept alive), and the
 * most heap in use at all (sampled every 5 ms, garbage included).
 */
final class HeapSampler implements AutoCloseable {
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
  private static final Set<String> HEAP_POOLS =
      ManagementFactory.getMemoryPoolMXBeans().stream()
          .filter(pool -> pool.getType() == MemoryType.HEAP)
          .map(MemoryPoolMXBean::getName)
          .collect(Collectors.toSet());

  private final long baseline;
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final NotificationListener listener = this::onGc;
  private final Thread sampler;
  private volatile long peakAfterGc;
  private volatile long peakUsed;
  private volatile int collections;
  private volatile boolean running = true;

  HeapSampler() {
    this.baseline = settledHeap();
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(listener, null, null);
        emitters.add(emitter);
      }
    }
    sampler = new Thread(this::sample, "heap-sampler");
    sampler.setDaemon(true);
    sampler.start();
  }

  /** Heap in use after full collections, once it stops shrinking. */
  static long settledHeap() {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      long now = MEMORY.getHeapMemoryUsage().getUsed();
      if (now >= used) {
        return now;
      }
      used = now;
    }
    return used;
  }

  private void sample() {
    while (running) {
      peakUsed = Math.max(peakUsed, MEMORY.getHeapMemoryUsage().getUsed());
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void onGc(Notification notification, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
        notification.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
    long used = 0;
    for (Map.Entry<String, MemoryUsage> pool :
        info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
      // The map holds non-heap pools (metaspace, code cache) too.
      if (HEAP_POOLS.contains(pool.getKey())) {
        used += pool.getValue().getUsed();
      }
    }
    synchronized (this) {
      peakAfterGc = Math.max(peakAfterGc, used);
      collections++;
    }
  }

  long baseline() {
    return baseline;
  }

  long peakAfterGc() {
    return peakAfterGc;
  }

  long peakUsed() {
    return peakUsed;
  }

  int collections() {
    return collections;
  }

  @Override
  public void close() {
    running = false;
    sampler.interrupt();
    for (NotificationEmitter emitter : emitters) {
      try {
        emitter.removeNotificationListener(listener);
      } catch (ListenerNotFoundException e) {
        // already gone
      }
    }
  }
}
