package io.skippr.connect.json;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A bounded map that forgets the least recently used entry, safe for concurrent use (Kafka's
 * converter uses the same kind of cache, sized by {@code schemas.cache.size}).
 */
final class Lru<K, V> {
  private final Map<K, V> entries;

  Lru(int capacity) {
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
            return size() > capacity;
          }
        };
  }

  synchronized V get(K key) {
    return entries.get(key);
  }

  synchronized void put(K key, V value) {
    entries.put(key, value);
  }

  synchronized int size() {
    return entries.size();
  }
}
