package io.skippr.connect.it.soak;

import java.io.IOException;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Samples one worker process: over remote JMX its heap after a full collection ({@code
 * java.lang:type=Memory} {@code gc}, as {@code jcmd <pid> GC.run} does), metaspace, threads, CPU
 * time and the lake sinks' {@code buffered-bytes}; from {@code /proc/<pid>} its resident memory and
 * open file descriptors, and which of them are lake files being written ({@code .tmp}: each is a
 * Parquet file, a log entry or a merge being written) or read ({@code .parquet}).
 */
public final class WorkerProbe implements AutoCloseable {
  private static final double MB = 1024.0 * 1024.0;

  private final long pid;
  private final JMXConnector connector;
  private final MBeanServerConnection mbeans;
  private long lastCpuNanos = -1;
  private long lastWallNanos;

  private WorkerProbe(long pid, JMXConnector connector) throws IOException {
    this.pid = pid;
    this.connector = connector;
    this.mbeans = connector.getMBeanServerConnection();
  }

  /**
   * A heap of fixed size (the {@code -Xmx1g} the worker is started with), every page touched at
   * start: so the heap is resident from the first sample to the last and resident memory beyond it
   * is native memory. Without them the JVM commits heap lazily and a committed page becomes
   * resident only when first written, so resident minus committed heap rose through a worker's
   * first minutes (and jumped when a collection resized the heap) with no native allocation behind
   * it.
   */
  public static final String RESIDENT_HEAP_OPTIONS = "-Xms1g -XX:+AlwaysPreTouch";

  /** The JVM options that open remote JMX on {@code port} of 127.0.0.1, without auth or TLS. */
  public static String jmxOptions(int port) {
    return String.join(
        " ",
        "-Dcom.sun.management.jmxremote.port=" + port,
        "-Dcom.sun.management.jmxremote.rmi.port=" + port,
        "-Dcom.sun.management.jmxremote.host=127.0.0.1",
        "-Djava.rmi.server.hostname=127.0.0.1",
        "-Dcom.sun.management.jmxremote.authenticate=false",
        "-Dcom.sun.management.jmxremote.ssl=false");
  }

  /** Connects to the worker {@code pid} whose JMX listens on {@code port}. */
  public static WorkerProbe connect(long pid, int port) throws IOException {
    JMXServiceURL url =
        new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi");
    return new WorkerProbe(pid, JMXConnectorFactory.connect(url));
  }

  /**
   * One sample: {@code heap_mb} (used after a full GC), {@code heap_committed_mb}, {@code
   * metaspace_mb}, {@code rss_mb}, {@code native_mb} (resident memory beyond the committed heap),
   * {@code threads}, {@code fds}, {@code writers} and {@code lake_reads} (descriptors of lake files
   * being written and read under {@code lakes}), {@code cpu_pct} (of one core, since the previous
   * sample) and {@code buffered_mb} (the lake sink tasks' buffered bytes).
   */
  public Map<String, Double> sample(List<Path> lakes) throws IOException, JMException {
    Map<String, Double> out = new LinkedHashMap<>();
    ObjectName memory = new ObjectName("java.lang:type=Memory");
    mbeans.invoke(memory, "gc", null, null);
    MemoryUsage heap = usage(memory, "HeapMemoryUsage");
    MemoryUsage metaspace =
        usage(new ObjectName("java.lang:type=MemoryPool,name=Metaspace"), "Usage");
    out.put("heap_mb", heap.getUsed() / MB);
    out.put("heap_committed_mb", heap.getCommitted() / MB);
    out.put("metaspace_mb", metaspace.getUsed() / MB);
    double rss = residentKb() / 1024.0;
    out.put("rss_mb", rss);
    out.put("native_mb", rss - heap.getCommitted() / MB);
    out.put("threads", number(new ObjectName("java.lang:type=Threading"), "ThreadCount"));
    countDescriptors(lakes, out);
    out.put("cpu_pct", cpuPercent());
    out.put("buffered_mb", bufferedBytes() / MB);
    return out;
  }

  private MemoryUsage usage(ObjectName bean, String attribute) throws IOException, JMException {
    return MemoryUsage.from((CompositeData) mbeans.getAttribute(bean, attribute));
  }

  private double number(ObjectName bean, String attribute) throws IOException, JMException {
    return ((Number) mbeans.getAttribute(bean, attribute)).doubleValue();
  }

  private double cpuPercent() throws IOException, JMException {
    long cpu = (long) number(new ObjectName("java.lang:type=OperatingSystem"), "ProcessCpuTime");
    long wall = System.nanoTime();
    double percent =
        lastCpuNanos < 0 ? Double.NaN : 100.0 * (cpu - lastCpuNanos) / (wall - lastWallNanos);
    lastCpuNanos = cpu;
    lastWallNanos = wall;
    return percent;
  }

  private double bufferedBytes() throws IOException, JMException {
    double sum = 0;
    for (ObjectName task :
        mbeans.queryNames(new ObjectName("kafka.connect:type=plugins,*"), null)) {
      if (task.getKeyProperty("topic") == null) {
        Object value = attributeOrNull(task, "buffered-bytes");
        sum += value instanceof Number n ? n.doubleValue() : 0;
      }
    }
    return sum;
  }

  private Object attributeOrNull(ObjectName bean, String attribute) throws IOException {
    try {
      return mbeans.getAttribute(bean, attribute);
    } catch (JMException e) {
      return null; // a source task's bean: no such metric
    }
  }

  private long residentKb() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new IOException("no VmRSS in /proc/" + pid + "/status");
  }

  private void countDescriptors(List<Path> lakes, Map<String, Double> out) throws IOException {
    int all = 0;
    int writing = 0;
    int reading = 0;
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : fds.toList()) {
        all++;
        String target = target(fd);
        if (target != null && lakes.stream().anyMatch(lake -> target.startsWith(lake + "/"))) {
          writing += target.endsWith(".tmp") ? 1 : 0;
          reading += target.endsWith(".parquet") ? 1 : 0;
        }
      }
    }
    out.put("fds", (double) all);
    out.put("writers", (double) writing);
    out.put("lake_reads", (double) reading);
  }

  private static String target(Path fd) {
    try {
      return Files.readSymbolicLink(fd).toString();
    } catch (IOException e) {
      return null; // closed since it was listed
    }
  }

  @Override
  public void close() {
    try {
      connector.close();
    } catch (IOException e) {
      // the worker is gone: nothing to close on its side
    }
  }
}
