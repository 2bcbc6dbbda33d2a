package io.skippr.connect.json;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * A schemaless JSON object as {@link StreamingJsonConverter} reads it: a map of its keys in
 * document order, kept in two arrays. Equal to (and hashing as) any map of the same entries, and
 * mutable like the {@code HashMap} Kafka's converter gives, so transforms treat it as any map. A
 * consumer that knows the type walks it by position ({@link #keyAt}, {@link #valueAt}) without an
 * entry, an iterator or a hash lookup per field; keys are the parser's canonical instances, so the
 * same key is usually the same {@code String} from record to record.
 */
public final class JsonObject extends AbstractMap<String, Object> {
  /** Up to this many keys a lookup scans; beyond, it uses an index built on first need. */
  private static final int SCAN_LIMIT = 8;

  private String[] keys;
  private Object[] values;
  private int size;
  private Map<String, Integer> index;

  JsonObject() {
    this.keys = new String[8];
    this.values = new Object[8];
  }

  /** The number of keys; {@link #keyAt} and {@link #valueAt} take positions below it. */
  @Override
  public int size() {
    return size;
  }

  /** The key at a position, in document order (a repeated key keeps its first position). */
  public String keyAt(int position) {
    return keys[checked(position)];
  }

  /** The value at a position: the key's last value in the document. */
  public Object valueAt(int position) {
    return values[checked(position)];
  }

  @Override
  public Object get(Object key) {
    int at = find(key);
    return at < 0 ? null : values[at];
  }

  @Override
  public boolean containsKey(Object key) {
    return find(key) >= 0;
  }

  /** Sets a key's value; a new key goes last. */
  @Override
  public Object put(String key, Object value) {
    int at = find(key);
    if (at >= 0) {
      Object old = values[at];
      values[at] = value;
      return old;
    }
    if (size == keys.length) {
      keys = Arrays.copyOf(keys, size * 2);
      values = Arrays.copyOf(values, size * 2);
    }
    keys[size] = key;
    values[size] = value;
    if (index != null) {
      index.put(key, size);
    }
    size++;
    return null;
  }

  @Override
  public Object remove(Object key) {
    int at = find(key);
    if (at < 0) {
      return null;
    }
    Object old = values[at];
    removeAt(at);
    return old;
  }

  @Override
  public void clear() {
    Arrays.fill(keys, 0, size, null);
    Arrays.fill(values, 0, size, null);
    size = 0;
    index = null;
  }

  @Override
  public Set<Entry<String, Object>> entrySet() {
    return new Entries();
  }

  private void removeAt(int at) {
    System.arraycopy(keys, at + 1, keys, at, size - at - 1);
    System.arraycopy(values, at + 1, values, at, size - at - 1);
    size--;
    keys[size] = null;
    values[size] = null;
    index = null; // positions moved: rebuilt when next needed
  }

  private int find(Object key) {
    if (key != null && !(key instanceof String)) {
      return -1;
    }
    if (size <= SCAN_LIMIT) {
      for (int i = 0; i < size; i++) {
        if (keys[i] == key) {
          return i;
        }
      }
      for (int i = 0; i < size; i++) {
        if (Objects.equals(keys[i], key)) {
          return i;
        }
      }
      return -1;
    }
    if (index == null) {
      index = new HashMap<>(size * 2);
      for (int i = 0; i < size; i++) {
        index.put(keys[i], i);
      }
    }
    Integer at = index.get(key);
    return at == null ? -1 : at;
  }

  private int checked(int position) {
    if (position < 0 || position >= size) {
      throw new IndexOutOfBoundsException("position " + position + " of " + size);
    }
    return position;
  }

  private final class Entries extends AbstractSet<Entry<String, Object>> {
    @Override
    public int size() {
      return size;
    }

    @Override
    public Iterator<Entry<String, Object>> iterator() {
      return new Iterator<>() {
        private int next;
        private int last = -1;

        @Override
        public boolean hasNext() {
          return next < size;
        }

        @Override
        public Entry<String, Object> next() {
          if (next >= size) {
            throw new NoSuchElementException();
          }
          last = next++;
          return new Position(last);
        }

        @Override
        public void remove() {
          if (last < 0) {
            throw new IllegalStateException();
          }
          removeAt(last);
          next = last;
          last = -1;
        }
      };
    }
  }

  /** An entry that reads and writes its position of the map. */
  private final class Position implements Entry<String, Object> {
    private final int at;

    Position(int at) {
      this.at = at;
    }

    @Override
    public String getKey() {
      return keys[at];
    }

    @Override
    public Object getValue() {
      return values[at];
    }

    @Override
    public Object setValue(Object value) {
      Object old = values[at];
      values[at] = value;
      return old;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Entry<?, ?> e
          && Objects.equals(keys[at], e.getKey())
          && Objects.equals(values[at], e.getValue());
    }

    @Override
    public int hashCode() {
      return Objects.hashCode(keys[at]) ^ Objects.hashCode(values[at]);
    }

    @Override
    public String toString() {
      return keys[at] + "=" + values[at];
    }
  }
}
