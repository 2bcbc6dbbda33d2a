package io.skippr.connect.it;

import io.skippr.connect.testkit.ConnectCluster;
import java.lang.reflect.Field;
import java.util.Map;
import org.apache.kafka.connect.runtime.Connect;
import org.apache.kafka.connect.util.ConnectorTaskId;
import org.apache.kafka.connect.util.clusters.WorkerHandle;

/**
 * Reaches a running task's own object inside an in-process worker, to break it from outside the way
 * a fault would. Follows Connect 4.3's private fields (WorkerHandle.worker, AbstractHerder .worker,
 * Worker.tasks, AbstractWorkerSourceTask.task): a rename fails loudly here.
 */
final class WorkerTasks {

  private WorkerTasks() {}

  /** The task object (the plugin's class, from its class loader) of {@code connector}'s task. */
  static Object task(ConnectCluster cluster, String connector, int task) throws Exception {
    ConnectorTaskId id = new ConnectorTaskId(connector, task);
    for (WorkerHandle handle : cluster.connect().workers()) {
      Connect<?> connect = (Connect<?>) field(handle, WorkerHandle.class, "worker");
      Object worker = field(connect.herder(), "worker");
      Map<?, ?> tasks = (Map<?, ?>) field(worker, "tasks");
      Object workerTask = tasks.get(id);
      if (workerTask != null) {
        return field(workerTask, "task");
      }
    }
    throw new IllegalStateException("no worker runs " + id);
  }

  /** Stops the Jetty server of an HTTP ingest task, as if it had stopped by itself. */
  static void stopIngestServer(ConnectCluster cluster, String connector) throws Exception {
    Object jetty = field(field(field(task(cluster, connector, 0), "endpoint"), "server"), "server");
    jetty.getClass().getMethod("stop").invoke(jetty);
  }

  /** The value of a field declared by the object's class or one of its superclasses. */
  private static Object field(Object owner, String name) throws ReflectiveOperationException {
    for (Class<?> c = owner.getClass(); c != null; c = c.getSuperclass()) {
      try {
        return field(owner, c, name);
      } catch (NoSuchFieldException e) {
        // declared higher up
      }
    }
    throw new NoSuchFieldException(owner.getClass().getName() + "." + name);
  }

  private static Object field(Object owner, Class<?> declaring, String name)
      throws ReflectiveOperationException {
    Field f = declaring.getDeclaredField(name);
    f.setAccessible(true);
    return f.get(owner);
  }
}
