package io.skippr.connect.source.http;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.ObjectName;

/** Reads a task's ingest metrics over JMX (the fallback registry of a worker without KIP-877). */
final class TaskJmx {

  private TaskJmx() {}

  static ObjectName name(String connector, int task) {
    try {
      return new ObjectName(
          "skippr.connect:type=http-ingest-metrics,connector=" + connector + ",task=" + task);
    } catch (JMException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The metric of the harness's task (connector name "http-ingest", task 0). */
  static double metric(String attribute) {
    return metric(name("http-ingest", 0), attribute);
  }

  static double metric(ObjectName name, String attribute) {
    try {
      Object value = ManagementFactory.getPlatformMBeanServer().getAttribute(name, attribute);
      return ((Number) value).doubleValue();
    } catch (JMException e) {
      throw new IllegalStateException("cannot read " + name + " " + attribute, e);
    }
  }
}
