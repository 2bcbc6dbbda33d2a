package io.skippr.connect.source.http.catalog;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Rows in this task's memory ({@code catalog.store=memory}, tests): nothing survives a restart. */
final class MemoryRows implements CatalogRows {

  private final Map<String, Row> rows = new ConcurrentHashMap<>();

  @Override
  public Row get(String id) {
    return rows.getOrDefault(id, Row.ABSENT);
  }

  @Override
  public synchronized boolean compareAndSet(String id, long expectedVersion, byte[] value) {
    Row current = get(id);
    if (current.version() != expectedVersion) {
      return false;
    }
    rows.put(id, new Row(expectedVersion + 1, value.clone()));
    return true;
  }

  @Override
  public String describe() {
    return "the task's memory";
  }

  @Override
  public void close() {}
}
